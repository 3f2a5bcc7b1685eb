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
import wsjava.protocol.OpCode;

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
    /** Until the upgrade: the request head's parser; then null. */
    private UpgradeStage upgradeStage;
    /** Null until the upgrade. */
    private OpenCodec codec;

    private final ConnectionClock clock;
    private final ConnectionInput input;
    /** Null until the first close code is recorded (see {@link CloseStatus}). */
    private CloseStatus closeStatus;
    /** Read here so that CloseStatus is loaded with the first connection, not in {@link #shed()} when memory ran out. */
    private static final CloseStatus SHED = CloseStatus.OUT_OF_MEMORY;

    ServerConnection(SocketChannel channel, IoLoop loop, WebSocketServer server) {
        this.channel = channel;
        this.loop = loop;
        this.server = server;
        this.config = server.settings();
        this.writer = server.frameWriter();
        this.reading = new ReadGate(this, server);
        this.transport = Transport.open(channel, config, loop, this::resumeTls, this::requestFlush);
        this.outbox = new Outbox(this, transport, loop, config, server.stats(), reading, server.limits().inbound, server.limits().output);
        this.upgradeStage = new UpgradeStage(server);
        this.remoteAddress = ConnectionHandle.remoteAddressOf(channel);
        this.clock = new ConnectionClock(System.nanoTime(), config.handshakeTimeoutMillis());
        this.input = new ConnectionInput(this, loop, reading, clock, server);
    }

    /** A TLS handshake's tasks are done: go on reading and writing. */
    private void resumeTls() {
        if (state != State.CLOSED) {
            onReadable(loop.buffers().read);
            flush();
        }
    }

    private void requestFlush() {
        outbox.requestFlush();
    }

    long id() { return id; }
    boolean isOpen() { return state == State.OPEN; }
    boolean handshaking() { return state == State.HANDSHAKE; }
    /** Reading the request head: the upgrade is next (a TLS handshake is done). */
    boolean readsHead() { return state == State.HANDSHAKE && transport.ready(); }

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

    /** A ping's answer: a few wait at most, then only the latest (RFC 6455 section 5.5.3), however many pings come. */
    void pong(byte[] payload) {
        if (state == State.OPEN) {
            outbox.enqueuePong(writer.control(OpCode.PONG, payload));
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
        server.limits().handshakes.count(this, HandshakeLimiter.addressOf(remoteAddress));
    }

    String remoteAddress() {
        return remoteAddress;
    }

    /** Judged by the handshake limiter: it reads once more (see there), and goes unless that completes it or the server was waiting. */
    void pushOutIfWaiting() {
        loop.execute(() -> {
            if (state == State.HANDSHAKE && input.read(loop.buffers().read, transport)) {
                server.limits().handshakes.count(this, HandshakeLimiter.addressOf(remoteAddress));
            } else if (state == State.HANDSHAKE || state == State.HTTP_RESPONSE) {
                closeChannel();
            }
        });
    }


    void onReadable(ByteBuffer buffer) {
        input.read(buffer, transport);
    }

    boolean isDraining() {
        return reading.isDraining();
    }

    /**
     * One pass over input (a fresh read, or input carried over): the request head until the upgrade,
     * then frames. Returns whether what the pass left is to be kept for later (it is dropped after a
     * failure, an HTTP answer, or before the upgrade).
     */
    boolean consume(ByteBuffer bytes) {
        try {
            if (state == State.HANDSHAKE && !readRequest(bytes)) {
                return false;
            }
            if ((state == State.OPEN || state == State.CLOSING) && bytes.hasRemaining() && codec.assembler().resume()) {
                codec.parse(bytes);
            }
            return state == State.OPEN || state == State.CLOSING;
        } catch (HandshakeException e) {
            respond(e.toHttpResponse());
        } catch (CloseException e) {
            failWith(e, e);
        }
        return false;
    }

    /** Input carried over may be parsed now (the loop's next pass after a yield). */
    void continueCarried() {
        if (state != State.CLOSED) {
            input.continueCarried();
        }
    }

    /** The server suspended or resumed all reading: input carried over goes on at the next pass. */
    void readingSwitched() {
        reading.update();
        if (state != State.CLOSED) {
            input.continueSoon();
        }
    }

    boolean isClosed() {
        return state == State.CLOSED;
    }

    /** The open connection's message assembler, or null before the upgrade. */
    wsjava.protocol.MessageAssembler assembler() {
        return codec == null ? null : codec.assembler();
    }

    /** What arrives failed the connection outside a parse (a stalled message): a close frame with the code. */
    void failInput(CloseException e) {
        failWith(e, e);
    }

    /** Returns true when the connection just opened and bytes after the request may hold frames. */
    private boolean readRequest(ByteBuffer buffer) {
        HttpRequest parsed = upgradeStage.parse(buffer);
        if (parsed == null) {
            return false;
        }
        if (!Handshake.isUpgradeRequest(parsed)) {
            respond(server.httpResponse(parsed));
            return false;
        }
        UpgradeStage.Session session = upgradeStage.open(parsed, this, loop, writer, outbox, input.allowance);
        upgradeStage = null;
        handle = session.handle;
        calls = session.calls;
        codec = session.codec;
        outbox.enqueue(session.response);
        state = State.OPEN;
        server.limits().handshakes.done(this);
        server.opened(handle);
        return calls.opened();
    }

    /** The peer's close frame: echo its code (1000 when it sent none), then close TCP first. */
    void peerClosed(int code, String reason) {
        if (state == State.OPEN) {
            recordClose(code, reason);
            queueClose(code == CloseCodes.NO_STATUS ? CloseCodes.NORMAL : code, "");
        }
        input.abandonMessage();      // no data may follow a close frame: a half message can never end
        outbox.closeWhenWritten(false);
    }

    /** Keeps the first close code and reason recorded: the one {@code onClose} reports. */
    private void recordClose(int code, String reason) {
        if (closeStatus == null) {
            closeStatus = new CloseStatus(code, reason);
        }
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
        input.abandonMessage();      // failed: its half message goes back now, not after the close timeout
        outbox.closeWhenWritten(true);
    }

    void listenerFailed(Throwable e) {
        ServerLog.log(Level.WARNING, "listener failed on " + this + "; closing it with 1011", e);
        failWith(new CloseException(CloseCodes.INTERNAL_ERROR, "internal error in message handler"), e);
    }

    private void queueClose(int code, String reason) {
        if (codec.encoder().enqueueClose(writer.close(code, reason))) {     // behind the messages already accepted
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

    /** Memory ran out while serving this connection: it goes at once, without a close frame (which would need memory). */
    void shed() {
        if (closeStatus == null) {
            closeStatus = SHED;     // made in advance: memory ran out
        }
        closeChannel();
    }

    /** The last resort when even {@link #shed()} failed: the socket is closed, nothing else. */
    void closeQuietly() {
        try {
            transport.close();
        } catch (Throwable ignored) {   // nothing more can be done
            // dropped
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
        } else if (state == State.HANDSHAKE && transport.ready() && clock.headOverdue(now, config.headTimeoutMillis(), reading.upgradeWaits())) {
            respond(new HandshakeException(408, "request head not complete within " + config.headTimeoutMillis() + " ms").toHttpResponse());
        } else if (state == State.CLOSING && clock.pastDeadline(now) && closeFrameStillMoving(now)) {
            clock.deadlineIn(config.closeTimeoutMillis());     // the close frame still waits behind accepted messages
        } else if ((state == State.HTTP_RESPONSE || state == State.CLOSING) && clock.pastDeadline(now)) {
            closeChannel();
        } else if (state == State.OPEN && clock.idle(now, config.idleTimeoutMillis())) {
            startClose(CloseCodes.GOING_AWAY, "idle timeout");
        } else if (state == State.OPEN && clock.pingDue(now, config.pingIntervalMillis())) {
            outbox.enqueue(writer.control(OpCode.PING, new byte[0]));
        }
        if (state == State.OPEN && outbox.stalledWhileBudgetSpent(now)) {
            drop(CloseCodes.POLICY_VIOLATION, Outbox.STALLED_REASON);      // it holds memory others need and reads nothing
            return;
        }
        if (codec != null) {
            codec.onTimer(now);
        }
        if (state == State.OPEN || state == State.CLOSING) {
            input.onTimer(now);
        }
    }

    /**
     * Whether the close frame is still on its way behind accepted messages: a worker is compressing
     * them, or the peer took some of them within the close timeout. The timeout cuts a peer that
     * stopped reading, not one still reading what we promised to deliver.
     */
    private boolean closeFrameStillMoving(long now) {
        return codec.encoder().compressing() || outbox.movingWithin(now, config.closeTimeoutMillis() * 1_000_000L);
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

    /** Ends the connection for good: TCP closed, budget returned, listener told once. */
    void closeChannel() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        server.limits().handshakes.done(this);
        outbox.discard();
        input.closed();
        if (codec != null) {
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
            CloseStatus status = closeStatus == null ? CloseStatus.LOST : closeStatus;
            calls.closed(status.code(), status.reason());
        }
    }
}
