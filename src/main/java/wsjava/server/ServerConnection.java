package wsjava.server;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import wsjava.protocol.CloseCodes;
import wsjava.protocol.CloseException;
import wsjava.protocol.FrameParser;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.Handshake;
import wsjava.protocol.HandshakeException;
import wsjava.protocol.HttpRequest;
import wsjava.protocol.HttpRequestParser;
import wsjava.protocol.MessageAssembler;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;
import wsjava.protocol.Utf8Validator;

/**
 * A connection's state machine, driven by its I/O thread:
 * <pre>
 *   HANDSHAKE --101--> OPEN --close sent or received--> CLOSING --TCP closed--> CLOSED
 *       \--plain HTTP or refused--> HTTP_RESPONSE --answer written, peer drained--> CLOSED
 * </pre>
 * Reading, parsing and listener calls happen on the I/O thread; sends may come from any thread.
 */
final class ServerConnection implements WebSocketConnection {

    enum State { HANDSHAKE, HTTP_RESPONSE, OPEN, CLOSING, CLOSED }

    private static final AtomicLong IDS = new AtomicLong();

    private final long id = IDS.incrementAndGet();
    private final SocketChannel channel;
    private final IoLoop loop;
    private final WebSocketServer server;
    private final ServerConfig config;
    private final FrameWriter writer;
    private final ReadGate reading;
    private final Outbox outbox;
    /** The listener calls, for the listener chosen at the upgrade (until then, the server's). */
    private ListenerCalls calls;
    private final InetSocketAddress remote;

    private SelectionKey key;
    private volatile State state = State.HANDSHAKE;
    private HttpRequestParser requestParser;
    private HttpRequest request;
    private String subprotocol;
    private FrameParser frameParser;
    private MessageAssembler assembler;

    private long deadlineNanos;
    private long lastHeardNanos;
    private long lastPingNanos;
    private boolean wasOpen;
    private boolean closeRecorded;
    private int closeCode = CloseCodes.ABNORMAL;
    private String closeReason = "connection lost";
    private volatile Object attachment;

    ServerConnection(SocketChannel channel, IoLoop loop, WebSocketServer server) {
        this.channel = channel;
        this.loop = loop;
        this.server = server;
        this.config = server.settings();
        this.writer = new FrameWriter(Role.SERVER, config.outboundFragmentSize());
        this.reading = new ReadGate(this, server.inboundBudget());
        this.outbox = new Outbox(this, channel, loop, config, server.stats(), reading);
        this.calls = new ListenerCalls(this, server.listener(), server.stats());
        this.requestParser = new HttpRequestParser(config.maxHeaderBytes());
        this.remote = remoteOf(channel);
        long now = System.nanoTime();
        this.deadlineNanos = now + config.handshakeTimeoutMillis() * 1_000_000L;
        this.lastHeardNanos = now;
        this.lastPingNanos = now;
    }

    private static InetSocketAddress remoteOf(SocketChannel channel) {
        try {
            return (InetSocketAddress) channel.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    // ---- what a listener sees ----

    @Override public long id() { return id; }
    @Override public boolean isOpen() { return state == State.OPEN; }
    @Override public String path() { return request == null ? "" : request.path(); }
    @Override public String query() { return request == null ? "" : request.query(); }
    @Override public String header(String name) { return request == null ? null : request.header(name); }
    @Override public Map<String, String> headers() { return request == null ? Collections.emptyMap() : request.headers(); }
    @Override public String subprotocol() { return subprotocol; }
    @Override public WebSocketServer server() { return server; }
    @Override public long queuedBytes() { return outbox.queuedBytes(); }
    @Override public Object attachment() { return attachment; }
    @Override public void attach(Object value) { attachment = value; }

    @Override
    public String remoteAddress() {
        return remote == null ? "" : remote.getAddress().getHostAddress() + ":" + remote.getPort();
    }

    @Override
    public void suspendReading() {
        loop.execute(() -> reading.appPaused(true));
    }

    @Override
    public void resumeReading() {
        loop.execute(() -> reading.appPaused(false));
    }

    @Override
    public boolean sendText(String text) {
        if (state != State.OPEN) {
            return false;
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return sendMessage(writer.message(OpCode.TEXT, utf8, 0, utf8.length));
    }

    @Override
    public boolean sendText(byte[] utf8) {
        if (!Utf8Validator.isValid(utf8, 0, utf8.length)) {
            throw new IllegalArgumentException("a text message must be UTF-8");
        }
        return state == State.OPEN && sendMessage(writer.message(OpCode.TEXT, utf8, 0, utf8.length));
    }

    @Override
    public boolean sendBinary(byte[] data, int off, int len) {
        return state == State.OPEN && sendMessage(writer.message(OpCode.BINARY, data, off, len));
    }

    @Override
    public CompletableFuture<Void> sendTextAsync(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return sendAsync(OpCode.TEXT, utf8, 0, utf8.length);
    }

    @Override
    public CompletableFuture<Void> sendBinaryAsync(byte[] data, int off, int len) {
        return sendAsync(OpCode.BINARY, data, off, len);
    }

    private CompletableFuture<Void> sendAsync(int opcode, byte[] payload, int off, int len) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (state != State.OPEN) {
            done.completeExceptionally(new IOException("the connection is not open"));
        } else if (outbox.enqueue(writer.message(opcode, payload, off, len), done)) {
            server.stats().messagesOut.increment();
        }
        return done;
    }

    @Override
    public boolean isWritable() {
        return outbox.isWritable();
    }

    void becameWritable() {
        if (state == State.OPEN) {
            calls.writable();
        }
    }

    /** Queues frames that are already encoded (one broadcast frame shared by many connections). */
    boolean sendMessage(byte[] frames) {
        if (!outbox.enqueue(frames)) {
            return false;
        }
        server.stats().messagesOut.increment();
        return true;
    }

    @Override
    public boolean ping(byte[] payload) {
        if (payload.length > 125) {
            throw new IllegalArgumentException("a ping payload is at most 125 bytes, was " + payload.length);
        }
        return state == State.OPEN && outbox.enqueue(writer.control(OpCode.PING, payload));
    }

    void pong(byte[] payload) {
        if (state == State.OPEN) {
            outbox.enqueue(writer.control(OpCode.PONG, payload));
        }
    }

    @Override
    public void close(int code, String reason) {
        if (!CloseCodes.isValidOnWire(code)) {
            throw new IllegalArgumentException("close code " + code + " may not be sent");
        }
        loop.execute(() -> startClose(code, reason));
    }

    @Override
    public String toString() {
        return "WebSocketConnection[" + id + ", " + remoteAddress() + ", " + state + "]";
    }

    // ---- the I/O thread ----

    void register(SelectionKey selectionKey) {
        key = selectionKey;
        reading.register(selectionKey);
        outbox.register(selectionKey);
    }

    void onReadable(ByteBuffer buffer) {
        buffer.clear();
        int n;
        try {
            n = channel.read(buffer);
        } catch (IOException e) {
            lost("connection lost: " + e.getMessage(), e);
            return;
        }
        if (n < 0) {
            lost(state == State.OPEN ? "connection closed without a close frame" : "connection closed", null);
            return;
        }
        if (n == 0 || reading.isDraining()) {
            return;     // while lingering, what arrives is read only to be dropped
        }
        lastHeardNanos = System.nanoTime();
        server.stats().bytesIn.add(n);
        buffer.flip();
        try {
            if (state == State.HANDSHAKE && !readRequest(buffer)) {
                return;
            }
            if ((state == State.OPEN || state == State.CLOSING) && buffer.hasRemaining()) {
                frameParser.parse(buffer, assembler);
            }
        } catch (HandshakeException e) {
            respond(e.toHttpResponse());
        } catch (CloseException e) {
            failWith(e, e);
        } finally {
            reading.account(assembler, state == State.CLOSED);
        }
    }

    /** Returns true when the connection just opened and bytes after the request may hold frames. */
    private boolean readRequest(ByteBuffer buffer) {
        HttpRequest parsed = requestParser.parse(buffer);
        if (parsed == null) {
            return false;
        }
        requestParser = null;
        request = parsed;
        if (!Handshake.isUpgradeRequest(parsed)) {
            respond(server.httpResponse(parsed));
            return false;
        }
        Handshake.validate(parsed);
        UpgradeDecision decision = server.admit(parsed, remoteAddress());
        String chosen = decision.subprotocol();
        Handshake.HandshakeResponse response = Handshake.accept(parsed,
                chosen == null ? config.subprotocols() : Collections.singletonList(chosen), decision.headers());
        if (chosen != null && response.subprotocol() == null) {
            throw new HandshakeException(500, "the upgrade handler chose subprotocol " + chosen + ", which the client did not offer");
        }
        subprotocol = response.subprotocol();
        calls = new ListenerCalls(this, decision.listenerOr(server.listener()), server.stats());
        frameParser = new FrameParser(Role.SERVER, config.maxFramePayload());
        assembler = new MessageAssembler(calls, config.maxMessageSize());
        outbox.enqueue(response.bytes());
        state = State.OPEN;
        wasOpen = true;
        server.opened(this);
        return calls.opened();
    }

    /** The peer's close frame: echo its code (1000 when it sent none), then close TCP first. */
    void peerClosed(int code, String reason) {
        if (state == State.OPEN) {
            recordClose(code, reason);
            queueClose(code == CloseCodes.NO_STATUS ? CloseCodes.NORMAL : code, "");
        }
        outbox.closeWhenWritten(false);
    }

    private void startClose(int code, String reason) {
        if (state == State.OPEN) {
            recordClose(code, reason);
            queueClose(code, reason);
        } else if (state == State.HANDSHAKE) {
            closeChannel();
        }
    }

    /** Fails the connection (RFC 6455 section 7.1.7): a close frame with the code, then a lingering close. */
    private void failWith(CloseException e, Throwable cause) {
        if (state == State.OPEN) {
            calls.error(cause);
        }
        recordClose(e.code(), e.getMessage());
        if (state == State.OPEN || state == State.CLOSING) {
            queueClose(e.code(), e.getMessage());
        }
        reading.hold();
        outbox.closeWhenWritten(true);
    }

    void listenerFailed(Throwable e) {
        WebSocketServer.log(Level.WARNING, "listener failed on " + this + "; closing it with 1011", e);
        failWith(new CloseException(CloseCodes.INTERNAL_ERROR, "internal error in message handler"), e);
    }

    private void queueClose(int code, String reason) {
        if (outbox.enqueueClose(writer.close(code, reason))) {
            state = State.CLOSING;
            reading.update();
            deadlineNanos = System.nanoTime() + config.closeTimeoutMillis() * 1_000_000L;
        }
    }

    /** Answers a plain HTTP request (or a refused upgrade) and closes once the answer is written. */
    private void respond(byte[] response) {
        state = State.HTTP_RESPONSE;
        outbox.enqueue(response);
        outbox.enqueueClose(new byte[0]);
        deadlineNanos = System.nanoTime() + config.closeTimeoutMillis() * 1_000_000L;
        reading.hold();
        outbox.closeWhenWritten(true);
    }

    /** Writes what the socket takes now; called by the I/O thread when asked or when writable. */
    void flush() {
        if (state != State.CLOSED) {
            outbox.flush(state == State.OPEN, state == State.CLOSING);
        }
    }

    /** Drops the connection at once (a client too slow to read what it is sent). */
    void drop(int code, String reason) {
        recordClose(code, reason);
        closeChannel();
    }

    /**
     * Lingering close: our last bytes (a close frame, an HTTP answer) are written, so send FIN and
     * read (and drop) whatever the peer still sends until it closes or the close timeout passes.
     * Closing at once with unread bytes would send RST, which can destroy what we sent before the
     * peer has read it.
     */
    void linger() {
        if (reading.isDraining()) {
            return;
        }
        if (state != State.HTTP_RESPONSE) {
            state = State.CLOSING;
        }
        deadlineNanos = System.nanoTime() + config.closeTimeoutMillis() * 1_000_000L;
        try {
            channel.shutdownOutput();
        } catch (IOException e) {
            closeChannel();
            return;
        }
        outbox.stopWriting();
        reading.drain();
    }

    /** Checks deadlines; called by the I/O thread a few times a second. */
    void onTimer(long now) {
        if (state == State.HANDSHAKE && now - deadlineNanos > 0) {
            respond(new HandshakeException(408, "handshake not completed within " + config.handshakeTimeoutMillis() + " ms").toHttpResponse());
        } else if ((state == State.HTTP_RESPONSE || state == State.CLOSING) && now - deadlineNanos > 0) {
            closeChannel();
        } else if (state == State.OPEN && config.idleTimeoutMillis() > 0 && now - lastHeardNanos > config.idleTimeoutMillis() * 1_000_000L) {
            startClose(CloseCodes.GOING_AWAY, "idle timeout");
        } else if (state == State.OPEN && config.pingIntervalMillis() > 0 && now - lastPingNanos > config.pingIntervalMillis() * 1_000_000L) {
            lastPingNanos = now;
            outbox.enqueue(writer.control(OpCode.PING, new byte[0]));
        }
        if ((state == State.OPEN || state == State.CLOSING) && reading.checkBudget(now, lastHeardNanos)) {
            lastHeardNanos = Math.max(lastHeardNanos, now);   // its turn to read starts now
        }
    }

    /** Graceful server stop: 1001 to open connections, TCP close for the rest. */
    void shutdown() {
        if (state == State.OPEN) {
            startClose(CloseCodes.GOING_AWAY, "server shutting down");
        } else if (state != State.CLOSING) {
            closeChannel();
        }
    }

    /** TCP went away under us; an I/O error is also reported to the listener's onError. */
    void lost(String reason, IOException error) {
        if (error != null && state == State.OPEN) {
            calls.error(error);
        }
        recordClose(CloseCodes.ABNORMAL, reason);
        closeChannel();
    }

    private void recordClose(int code, String reason) {
        if (!closeRecorded) {
            closeRecorded = true;
            closeCode = code;
            closeReason = reason;
        }
    }

    /** Ends the connection for good: TCP closed, budget returned, listener told once. */
    void closeChannel() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        outbox.discard();
        reading.account(assembler, true);
        if (key != null) {
            key.cancel();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing more to do with a socket we are dropping
        }
        loop.forget(this);
        server.closed(this, wasOpen);
        if (wasOpen) {
            calls.closed(closeCode, closeReason);
        }
    }
}
