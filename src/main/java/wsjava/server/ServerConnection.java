package wsjava.server;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicLong;
import wsjava.protocol.CloseCodes;
import wsjava.protocol.CloseException;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.Handshake;
import wsjava.protocol.HandshakeException;
import wsjava.protocol.HttpRequest;
import wsjava.protocol.HttpRequestParser;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;

/**
 * A connection's state machine, driven by its I/O thread:
 * <pre>
 *   HANDSHAKE --101--> OPEN --close sent or received--> CLOSING --TCP closed--> CLOSED
 *       \--plain HTTP or refused--> HTTP_RESPONSE --answer written, peer drained--> CLOSED
 * </pre>
 * Reading, parsing and listener calls happen on the I/O thread; sends may come from any thread.
 */
final class ServerConnection {

    enum State { HANDSHAKE, HTTP_RESPONSE, OPEN, CLOSING, CLOSED }

    private static final AtomicLong IDS = new AtomicLong();

    private final long id = IDS.incrementAndGet();
    private final SocketChannel channel;
    private final Transport transport;
    private final IoLoop loop;
    private final WebSocketServer server;
    private final ServerConfig config;
    private final FrameWriter writer;
    private final ReadGate reading;
    private final Outbox outbox;
    private final String remoteAddress;
    /** The listener's view and its calls: both made at the upgrade. */
    private ConnectionHandle handle;
    private ListenerCalls calls;

    private SelectionKey key;
    private volatile State state = State.HANDSHAKE;
    private HttpRequestParser requestParser;
    /** Null until the upgrade. */
    private OpenCodec codec;

    private final ConnectionClock clock;
    private final CloseStatus closeStatus = new CloseStatus();

    ServerConnection(SocketChannel channel, IoLoop loop, WebSocketServer server) {
        this.channel = channel;
        this.loop = loop;
        this.server = server;
        this.config = server.settings();
        this.writer = new FrameWriter(Role.SERVER, config.outboundFragmentSize());
        this.reading = new ReadGate(this, server.inboundBudget());
        this.transport = Transport.open(channel, config, loop, this::resumeTls, this::requestFlush);
        this.outbox = new Outbox(this, transport, loop, config, server.stats(), reading);
        this.requestParser = new HttpRequestParser(config.maxHeaderBytes());
        this.remoteAddress = ConnectionHandle.remoteAddressOf(channel);
        this.clock = new ConnectionClock(System.nanoTime(), config.handshakeTimeoutMillis());
    }

    /** A TLS handshake's tasks are done: go on reading and writing. */
    private void resumeTls() {
        if (state != State.CLOSED) {
            onReadable(loop.readBuffer());
            flush();
        }
    }

    private void requestFlush() {
        outbox.requestFlush();
    }

    long id() { return id; }
    boolean isOpen() { return state == State.OPEN; }

    void pauseReading(boolean paused) {
        loop.execute(() -> reading.appPaused(paused));
    }

    void closeSoon(int code, String reason) {
        loop.execute(() -> startClose(code, reason));
    }

    void becameWritable() {
        if (state == State.OPEN) {
            calls.writable();
        }
    }

    /**
     * Whether {@code buffer} is the view of the assembled message being delivered, which may then
     * be sent as it is, once (see {@link ListenerCalls#takeOwnedView}); only on the I/O thread.
     */
    boolean takeOwnedView(ByteBuffer buffer) {
        return loop.inLoop() && calls != null && calls.takeOwnedView(buffer);
    }

    /** For an owned view sent as it is: see {@link ConnectionBuffers#keepUntilSent}; null for an array's view. */
    java.util.concurrent.CompletableFuture<Void> releaseWhenSent(ByteBuffer view) {
        return view.isDirect() && codec.buffers() != null ? codec.buffers().keepUntilSent() : null;
    }

    void pong(byte[] payload) {
        if (state == State.OPEN) {
            outbox.enqueue(writer.control(OpCode.PONG, payload));
        }
    }

    @Override
    public String toString() {
        return "WebSocketConnection[" + id + ", " + remoteAddress + ", " + state + "]";
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
            n = transport.read(buffer);
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
        clock.heard(System.nanoTime());
        server.stats().bytesIn.add(n);
        buffer.flip();
        try {
            if (state == State.HANDSHAKE && !readRequest(buffer)) {
                return;
            }
            if ((state == State.OPEN || state == State.CLOSING) && buffer.hasRemaining()) {
                codec.parse(buffer);
            }
        } catch (HandshakeException e) {
            respond(e.toHttpResponse());
        } catch (CloseException e) {
            failWith(e, e);
        } finally {
            reading.account(codec == null ? null : codec.assembler(), state == State.CLOSED);
        }
    }

    /** Returns true when the connection just opened and bytes after the request may hold frames. */
    private boolean readRequest(ByteBuffer buffer) {
        HttpRequest parsed = requestParser.parse(buffer);
        if (parsed == null) {
            return false;
        }
        requestParser = null;
        if (!Handshake.isUpgradeRequest(parsed)) {
            respond(server.httpResponse(parsed));
            return false;
        }
        Handshake.validate(parsed);
        AcceptedUpgrade upgrade = AcceptedUpgrade.answer(parsed, server.admit(parsed, remoteAddress), config, server.listener());
        handle = new ConnectionHandle(this, server, parsed, remoteAddress, upgrade, writer, outbox);
        calls = new ListenerCalls(this, handle, upgrade.listener, server.stats());
        codec = new OpenCodec(upgrade.deflate, config, calls, writer, outbox,
                calls.takesBuffers() ? new ConnectionBuffers(loop.directPool()) : null);
        handle.encodeWith(codec.encoder());
        outbox.enqueue(upgrade.response);
        state = State.OPEN;
        server.opened(handle);
        return calls.opened();
    }

    /** The peer's close frame: echo its code (1000 when it sent none), then close TCP first. */
    void peerClosed(int code, String reason) {
        if (state == State.OPEN) {
            closeStatus.record(code, reason);
            queueClose(code == CloseCodes.NO_STATUS ? CloseCodes.NORMAL : code, "");
        }
        outbox.closeWhenWritten(false);
    }

    private void startClose(int code, String reason) {
        if (state == State.OPEN) {
            closeStatus.record(code, reason);
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
        closeStatus.record(e.code(), e.getMessage());
        if (state == State.OPEN || state == State.CLOSING) {
            queueClose(e.code(), e.getMessage());
        }
        reading.hold();
        outbox.closeWhenWritten(true);
    }

    void listenerFailed(Throwable e) {
        ServerLog.log(Level.WARNING, "listener failed on " + this + "; closing it with 1011", e);
        failWith(new CloseException(CloseCodes.INTERNAL_ERROR, "internal error in message handler"), e);
    }

    private void queueClose(int code, String reason) {
        if (outbox.enqueueClose(writer.close(code, reason))) {
            state = State.CLOSING;
            reading.update();
            clock.deadlineIn(config.closeTimeoutMillis());
        }
    }

    /** Answers a plain HTTP request (or a refused upgrade) and closes once the answer is written. */
    private void respond(byte[] response) {
        state = State.HTTP_RESPONSE;
        outbox.enqueue(response);
        outbox.enqueueClose(new byte[0]);
        clock.deadlineIn(config.closeTimeoutMillis());
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
        closeStatus.record(code, reason);
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
        clock.deadlineIn(config.closeTimeoutMillis());
        try {
            transport.shutdownOutput();
        } catch (IOException e) {
            closeChannel();
            return;
        }
        outbox.stopWriting();
        reading.drain();
    }

    /** Checks deadlines; called by the I/O thread a few times a second. */
    void onTimer(long now) {
        if (state == State.HANDSHAKE && clock.pastDeadline(now) && !transport.ready()) {
            closeChannel();      // the TLS handshake did not finish: no channel to answer on
        } else if (state == State.HANDSHAKE && clock.pastDeadline(now)) {
            respond(new HandshakeException(408, "handshake not completed within " + config.handshakeTimeoutMillis() + " ms").toHttpResponse());
        } else if ((state == State.HTTP_RESPONSE || state == State.CLOSING) && clock.pastDeadline(now)) {
            closeChannel();
        } else if (state == State.OPEN && clock.idle(now, config.idleTimeoutMillis())) {
            startClose(CloseCodes.GOING_AWAY, "idle timeout");
        } else if (state == State.OPEN && clock.pingDue(now, config.pingIntervalMillis())) {
            outbox.enqueue(writer.control(OpCode.PING, new byte[0]));
        }
        if (codec != null) {
            codec.onTimer(now);
        }
        if ((state == State.OPEN || state == State.CLOSING) && reading.checkBudget(now, clock.lastHeard())) {
            clock.heard(now);   // its turn to read starts now
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
        closeStatus.record(CloseCodes.ABNORMAL, reason);
        closeChannel();
    }

    /** Ends the connection for good: TCP closed, budget returned, listener told once. */
    void closeChannel() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        outbox.discard();
        if (codec != null) {
            reading.account(codec.assembler(), true);
            codec.release();
        }
        if (key != null) {
            key.cancel();
        }
        try {
            transport.close();
        } catch (IOException ignored) {
            // nothing more to do with a socket we are dropping
        }
        loop.forget(this);
        server.closed(this, handle != null);
        if (handle != null) {
            calls.closed(closeStatus.code(), closeStatus.reason());
        }
    }
}
