package wsjava.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
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
import wsjava.protocol.MessageHandler;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;
import wsjava.protocol.Utf8Validator;

/**
 * One client connection and its state machine:
 * <pre>
 *   HANDSHAKE --101--> OPEN --close sent or received--> CLOSING --TCP closed--> CLOSED
 *       \--plain HTTP or refused--> HTTP_RESPONSE --response written--> CLOSED
 * </pre>
 * Reading, parsing and listener calls happen on the connection's I/O thread. The send methods
 * may be called from any thread: each message is encoded whole and queued atomically.
 */
public final class WebSocketConnection {

    enum State { HANDSHAKE, HTTP_RESPONSE, OPEN, CLOSING, CLOSED }

    private static final AtomicLong IDS = new AtomicLong();
    /** How long the overdraft holder may send nothing before another paused connection gets a turn. */
    private static final long OVERDRAFT_PATIENCE_NANOS = 1_000_000_000L;

    private final long id = IDS.incrementAndGet();
    private final SocketChannel channel;
    private final IoLoop loop;
    private final WebSocketServer server;
    private final ServerConfig config;
    private final FrameWriter writer;
    private final OutboundQueue outbound = new OutboundQueue();
    private final InetSocketAddress remote;
    final AtomicBoolean flushRequested = new AtomicBoolean();

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
    /** Not reading: the peer isn't reading what we send (back-pressure), or the connection failed. */
    private boolean readPaused;
    /** Not reading: the server's inbound budget is spent and this connection holds part of a message. */
    private boolean budgetPaused;
    /** Not reading: the application asked ({@link #suspendReading()}). */
    private boolean appPaused;
    /** The assembler's buffer bytes counted in the server's inbound budget. */
    private long budgeted;
    private boolean closeAfterFlush;
    /** Output shut down after a failure or an HTTP answer; reading drains the peer until it closes. */
    private boolean lingering;
    private boolean lingerAfterFlush;
    private boolean wasOpen;
    private boolean closeRecorded;
    private int closeCode = CloseCodes.ABNORMAL;
    private String closeReason = "connection lost";
    private volatile Object attachment;

    WebSocketConnection(SocketChannel channel, IoLoop loop, WebSocketServer server) {
        this.channel = channel;
        this.loop = loop;
        this.server = server;
        this.config = server.config();
        this.writer = new FrameWriter(Role.SERVER, config.outboundFragmentSize());
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

    // ---- public API ----

    /** Unique within this JVM; WL code uses it to name the connection. */
    public long id() {
        return id;
    }

    public boolean isOpen() {
        return state == State.OPEN;
    }

    /** The request path of the upgrade, for example "/chat". */
    public String path() {
        return request == null ? "" : request.path();
    }

    public String query() {
        return request == null ? "" : request.query();
    }

    /** A request header of the upgrade (case-insensitive name), or null. */
    public String header(String name) {
        return request == null ? null : request.header(name);
    }

    public Map<String, String> headers() {
        return request == null ? Collections.emptyMap() : request.headers();
    }

    public String subprotocol() {
        return subprotocol;
    }

    public String remoteAddress() {
        return remote == null ? "" : remote.getAddress().getHostAddress() + ":" + remote.getPort();
    }

    public WebSocketServer server() {
        return server;
    }

    /** Bytes queued but not yet taken by the socket. */
    public long queuedBytes() {
        return outbound.queuedBytes();
    }

    /**
     * Stops reading from this client until {@link #resumeReading()}: TCP then pushes back on it.
     * Messages already read may still be delivered; nothing is dropped. Safe from any thread.
     */
    public void suspendReading() {
        loop.execute(() -> {
            appPaused = true;
            updateReadInterest();
        });
    }

    /** Undoes {@link #suspendReading()}. Safe from any thread. */
    public void resumeReading() {
        loop.execute(() -> {
            appPaused = false;
            updateReadInterest();
        });
    }

    public Object attachment() {
        return attachment;
    }

    public void attach(Object value) {
        attachment = value;
    }

    /** Queues a text message; false when the connection is not open (or was dropped as too slow). */
    public boolean sendText(String text) {
        if (state != State.OPEN) {
            return false;
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return sendMessage(writer.message(OpCode.TEXT, utf8, 0, utf8.length));
    }

    /** Queues a text message given as UTF-8 bytes; throws IllegalArgumentException when they are not UTF-8. */
    public boolean sendText(byte[] utf8) {
        if (!Utf8Validator.isValid(utf8, 0, utf8.length)) {
            throw new IllegalArgumentException("a text message must be UTF-8");
        }
        return state == State.OPEN && sendMessage(writer.message(OpCode.TEXT, utf8, 0, utf8.length));
    }

    public boolean sendBinary(byte[] data) {
        return sendBinary(data, 0, data.length);
    }

    public boolean sendBinary(byte[] data, int off, int len) {
        if (state != State.OPEN) {
            return false;
        }
        return sendMessage(writer.message(OpCode.BINARY, data, off, len));
    }

    /** Queues frames that are already encoded (for example one broadcast frame shared by many connections). */
    boolean sendMessage(byte[] frames) {
        if (!enqueue(frames)) {
            return false;
        }
        server.stats().messagesOut.increment();
        return true;
    }

    public boolean ping(byte[] payload) {
        return state == State.OPEN && enqueue(writer.control(OpCode.PING, payload));
    }

    /** Starts the close handshake. Safe from any thread; a no-op once closing. */
    public void close(int code, String reason) {
        if (!CloseCodes.isValidOnWire(code)) {
            throw new IllegalArgumentException("close code " + code + " may not be sent");
        }
        loop.execute(() -> startClose(code, reason));
    }

    public void close() {
        close(CloseCodes.NORMAL, "");
    }

    @Override
    public String toString() {
        return "WebSocketConnection[" + id + ", " + remoteAddress() + ", " + state + "]";
    }

    // ---- I/O thread ----

    void register(SelectionKey selectionKey) {
        this.key = selectionKey;
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
        if (n == 0 || lingering) {
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
            fail(e);
        } finally {
            accountInbound();
        }
    }

    /** Brings the server's inbound budget up to date with this connection's buffer, and pauses if it must. */
    private void accountInbound() {
        if (assembler == null) {
            return;
        }
        InboundBudget budget = server.inboundBudget();
        long held = state == State.CLOSED ? 0 : assembler.bufferCapacity();
        budget.add(held - budgeted);
        budgeted = held;
        if (!assembler.messageInProgress() || state == State.CLOSED) {
            budget.releaseOverdraft(this);
        } else if (budget.over() && !budget.tryOverdraft(this) && !budgetPaused) {
            budgetPaused = true;
            updateReadInterest();
        }
    }

    /** On the timer: a budget pause ends when there is room again, or when this connection gets the overdraft. */
    private void checkBudget(long now) {
        InboundBudget budget = server.inboundBudget();
        if (budgetPaused && (budget.roomToResume() || budget.tryOverdraft(this))) {
            budgetPaused = false;
            lastHeardNanos = Math.max(lastHeardNanos, now);   // its turn starts now
            updateReadInterest();
        } else if (!budgetPaused && budget.holdsOverdraft(this) && budget.over()
                && now - lastHeardNanos > OVERDRAFT_PATIENCE_NANOS) {
            budget.releaseOverdraft(this);       // a holder that stopped sending lets the others have a turn
            budgetPaused = true;
            updateReadInterest();
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
        server.admit(parsed);
        Handshake.HandshakeResponse response = Handshake.accept(parsed, config.subprotocols());
        subprotocol = response.subprotocol();
        frameParser = new FrameParser(Role.SERVER, config.maxFramePayload());
        assembler = new MessageAssembler(messages, config.maxMessageSize());
        outbound.add(response.bytes());
        requestFlush();
        state = State.OPEN;
        wasOpen = true;
        server.opened(this);
        try {
            server.listener().onOpen(this);
        } catch (Throwable e) {   // an Error from a listener too: this connection fails, the loop goes on
            listenerFailed(e);
            return false;
        }
        return true;
    }

    private final MessageHandler messages = new MessageHandler() {
        @Override
        public void onText(String text) {
            if (state != State.OPEN) {
                return;      // after our close frame, data is ignored
            }
            server.stats().messagesIn.increment();
            try {
                server.listener().onText(WebSocketConnection.this, text);
            } catch (Throwable e) {
                listenerFailed(e);
            }
        }

        @Override
        public void onBinary(byte[] data) {
            if (state != State.OPEN) {
                return;
            }
            server.stats().messagesIn.increment();
            try {
                server.listener().onBinary(WebSocketConnection.this, data);
            } catch (Throwable e) {
                listenerFailed(e);
            }
        }

        @Override
        public void onPing(byte[] payload) {
            if (state == State.OPEN) {
                enqueue(writer.control(OpCode.PONG, payload));
            }
        }

        @Override
        public void onPong(byte[] payload) {
            if (state != State.OPEN) {
                return;
            }
            try {
                server.listener().onPong(WebSocketConnection.this, payload);
            } catch (Throwable e) {
                listenerFailed(e);
            }
        }

        @Override
        public void onClose(int code, String reason) {
            if (state == State.OPEN) {
                // The peer started the close: echo its code (1000 when it sent none), then close TCP first.
                recordClose(code, reason);
                queueClose(code == CloseCodes.NO_STATUS ? CloseCodes.NORMAL : code, "");
            }
            closeAfterFlush = true;
            requestFlush();
        }
    };

    private void startClose(int code, String reason) {
        if (state == State.OPEN) {
            recordClose(code, reason);
            queueClose(code, reason);
        } else if (state == State.HANDSHAKE) {
            closeChannel();
        }
    }

    /** Fails the connection (RFC 6455 section 7.1.7): a close frame with the exception's code, then TCP close. */
    private void fail(CloseException e) {
        failWith(e, e);
    }

    private void failWith(CloseException e, Throwable cause) {
        if (state == State.OPEN) {
            try {
                server.listener().onError(this, cause);
            } catch (Throwable failed) {   // the connection is failing anyway; the loop must not
                WebSocketServer.log(System.Logger.Level.WARNING, "listener onError failed on " + this, failed);
            }
        }
        recordClose(e.code(), e.getMessage());
        if (state == State.OPEN || state == State.CLOSING) {
            queueClose(e.code(), e.getMessage());
        }
        closeAfterFlush = true;
        lingerAfterFlush = true;
        stopReading();
        requestFlush();
    }

    private void listenerFailed(Throwable e) {
        WebSocketServer.log(System.Logger.Level.WARNING, "listener failed on " + this + "; closing it with 1011", e);
        failWith(new CloseException(CloseCodes.INTERNAL_ERROR, "internal error in message handler"), e);
    }

    private void queueClose(int code, String reason) {
        if (outbound.addClose(writer.close(code, reason))) {
            state = State.CLOSING;
            updateReadInterest();
            deadlineNanos = System.nanoTime() + config.closeTimeoutMillis() * 1_000_000L;
            requestFlush();
        }
    }

    /** Answers a plain HTTP request (or a refused upgrade) and closes once the answer is written. */
    private void respond(byte[] response) {
        state = State.HTTP_RESPONSE;
        outbound.add(response);
        outbound.addClose(new byte[0]);
        closeAfterFlush = true;
        lingerAfterFlush = true;
        deadlineNanos = System.nanoTime() + config.closeTimeoutMillis() * 1_000_000L;
        stopReading();
        requestFlush();
    }

    private boolean enqueue(byte[] bytes) {
        long queued = outbound.add(bytes);
        if (queued < 0) {
            return false;
        }
        if (queued > config.outboundLimitBytes()) {
            outbound.discard();
            loop.execute(() -> {
                recordClose(CloseCodes.POLICY_VIOLATION, "client too slow: over " + config.outboundLimitBytes() + " bytes unsent");
                closeChannel();
            });
            return false;
        }
        requestFlush();
        return true;
    }

    private void requestFlush() {
        if (flushRequested.compareAndSet(false, true)) {
            loop.flushSoon(this);
        }
    }

    /** Writes what the socket takes now; called by the I/O thread when asked or when writable. */
    void flush() {
        flushRequested.set(false);
        if (state == State.CLOSED) {
            return;
        }
        long left;
        try {
            long before = outbound.queuedBytes();
            left = outbound.writeTo(channel, loop.gatherArray());
            server.stats().bytesOut.add(before - left);
        } catch (IOException e) {
            lost("connection lost while writing: " + e.getMessage(), e);
            return;
        }
        if (left == 0 && closeAfterFlush) {
            if (lingerAfterFlush) {
                linger();
            } else {
                closeChannel();
            }
            return;
        }
        setInterest(SelectionKey.OP_WRITE, left > 0);
        if (state == State.OPEN && !readPaused && left > config.readPauseBytes()) {
            stopReading();          // the peer isn't reading: stop reading from it too
        } else if ((state == State.OPEN || state == State.CLOSING) && !closeAfterFlush
                && readPaused && left <= config.readPauseBytes() / 2) {
            startReading();         // also after our close frame: the peer's reply to it must be read
        }
    }

    /**
     * Lingering close: our last bytes (a close frame, an HTTP answer) are written, so send FIN and
     * read (and drop) whatever the peer still sends until it closes or the close timeout passes.
     * Closing at once with unread bytes would send RST, which can destroy our close frame before
     * the peer has read it.
     */
    private void linger() {
        if (lingering) {
            return;
        }
        lingering = true;
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
        setInterest(SelectionKey.OP_WRITE, false);
        startReading();
    }

    private void startReading() {
        readPaused = false;
        updateReadInterest();
    }

    private void stopReading() {
        readPaused = true;
        updateReadInterest();
    }

    private void updateReadInterest() {
        // The application's pause holds only while open: a close handshake needs the peer's reply.
        setInterest(SelectionKey.OP_READ, lingering || (!readPaused && !budgetPaused && !(appPaused && state == State.OPEN)));
    }

    private void setInterest(int op, boolean on) {
        if (key != null && key.isValid()) {
            int ops = key.interestOps();
            int wanted = on ? ops | op : ops & ~op;
            if (wanted != ops) {
                key.interestOps(wanted);
            }
        }
    }

    /** Checks deadlines; called by the I/O thread a few times a second. */
    void onTimer(long now) {
        switch (state) {
            case HANDSHAKE:
                if (now - deadlineNanos > 0) {
                    respond(new HandshakeException(408, "handshake not completed within "
                            + config.handshakeTimeoutMillis() + " ms").toHttpResponse());
                }
                break;
            case HTTP_RESPONSE:
            case CLOSING:
                if (now - deadlineNanos > 0) {
                    closeChannel();
                } else {
                    checkBudget(now);
                }
                break;
            case OPEN:
                keepAlive(now);
                checkBudget(now);
                break;
            default:
                break;
        }
    }

    private void keepAlive(long now) {
        if (config.idleTimeoutMillis() > 0 && now - lastHeardNanos > config.idleTimeoutMillis() * 1_000_000L) {
            startClose(CloseCodes.GOING_AWAY, "idle timeout");
        } else if (config.pingIntervalMillis() > 0 && now - lastPingNanos > config.pingIntervalMillis() * 1_000_000L) {
            lastPingNanos = now;
            enqueue(writer.control(OpCode.PING, new byte[0]));
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
    private void lost(String reason, IOException error) {
        if (error != null && state == State.OPEN) {
            try {
                server.listener().onError(this, error);
            } catch (Throwable e) {   // the connection is going anyway; the loop must not
                WebSocketServer.log(System.Logger.Level.WARNING, "listener onError failed on " + this, e);
            }
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

    /** Ends the connection for good: TCP closed, listener told once. */
    void closeChannel() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        outbound.discard();
        accountInbound();
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
            try {
                server.listener().onClose(this, closeCode, closeReason);
            } catch (Throwable e) {   // the connection is gone; a failing onClose has nothing left to break
                WebSocketServer.log(System.Logger.Level.WARNING, "listener onClose failed on " + this, e);
            }
        }
    }
}
