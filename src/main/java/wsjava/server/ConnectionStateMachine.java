package wsjava.server;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import wsjava.protocol.CloseCodes;
import wsjava.protocol.CloseException;
import wsjava.protocol.FrameWriter;

/**
 * A connection's states, its parts, and how it ends:
 * <pre>
 *   HANDSHAKE --101--> OPEN --close sent or received--> CLOSING --TCP closed--> CLOSED
 *       \--plain HTTP or refused--> HTTP_RESPONSE --answer written, peer drained--> CLOSED
 * </pre>
 * Here are the first close code recorded, the close handshake (RFC 6455 section 7), the lingering
 * close and the one teardown that tells the listener. {@link ServerConnection} drives it on the I/O
 * thread (reads, the upgrade, flushing, deadlines). The two halves are one object: an idle
 * connection keeps no second object, and the read path no second hop. The fields without
 * {@code private} are for that subclass alone.
 */
abstract class ConnectionStateMachine {

    enum State { HANDSHAKE, HTTP_RESPONSE, OPEN, CLOSING, CLOSED }

    private static final AtomicLong IDS = new AtomicLong();

    final long id = IDS.incrementAndGet();
    /** The socket as the loop watches it; {@link #transport} is the same object, or TLS over it. */
    final ConnectionSocket socket;
    final Transport transport;
    final IoLoop loop;
    final WebSocketServer server;
    final ServerConfig config;
    final FrameWriter writer;
    final ReadGate reading;
    final Outbox outbox;
    final ConnectionClock clock;
    final ConnectionInput input;
    /** The listener's view and its calls: both made at the upgrade. */
    ConnectionHandle handle;
    ListenerCalls calls;
    /** Null until the upgrade. */
    OpenCodec codec;
    volatile State state = State.HANDSHAKE;
    /** Null until the first close code is recorded (see {@link CloseStatus}). */
    private CloseStatus closeStatus;
    /** Read here so that CloseStatus is loaded with the first connection, not in {@link #shed()} when memory ran out. */
    private static final CloseStatus SHED = CloseStatus.OUT_OF_MEMORY;

    ConnectionStateMachine(ConnectionSocket socket, IoLoop loop, WebSocketServer server) {
        this.socket = socket;
        this.loop = loop;
        this.server = server;
        this.config = server.settings();
        this.writer = server.frameWriter();
        this.reading = new ReadGate(self());
        this.transport = Transport.open(socket, config, loop, this::resumeTls, this::requestFlush);
        this.outbox = new Outbox(self());
        this.clock = new ConnectionClock(System.nanoTime(), config.handshakeTimeoutMillis());
        this.input = new ConnectionInput(self(), server);
    }

    /** This connection as its parts know it: the one subclass, without a cast. */
    abstract ServerConnection self();

    /** Reads what arrived and passes over it (see {@link ServerConnection}). */
    abstract void onReadable(ByteBuffer buffer);

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

    /** Writes what the socket takes now; called by the I/O thread when asked or when writable. */
    void flush() {
        if (state != State.CLOSED) {
            outbox.flush(state == State.OPEN, state == State.CLOSING);
        }
    }

    long id() { return id; }
    boolean isOpen() { return state == State.OPEN; }
    boolean handshaking() { return state == State.HANDSHAKE; }

    boolean isClosed() {
        return state == State.CLOSED;
    }

    void closeSoon(int code, String reason) {
        loop.execute(() -> startClose(code, reason));
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

    void startClose(int code, String reason) {
        if (state == State.OPEN) {
            recordClose(code, reason);
            queueClose(code, reason);
        } else if (state == State.HANDSHAKE) {
            closeChannel();
        }
    }

    /** What arrives failed the connection outside a parse (a stalled message): a close frame with the code. */
    void failInput(CloseException e) {
        failWith(e, e);
    }

    /** Fails the connection (RFC 6455 section 7.1.7): a close frame with the code, then a lingering close. */
    void failWith(CloseException e, Throwable cause) {
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

    /** A send taken earlier failed (out of memory, a bug): the connection may not go on without it, so it ends, with 1011 when memory allows. */
    void sendFailed(Throwable e) {
        if (e instanceof OutOfMemoryError) {
            shed();
            return;
        }
        ServerLog.log(Level.WARNING, "an outgoing message could not be sent on " + this + "; closing it with 1011", e);
        failWith(new CloseException(CloseCodes.INTERNAL_ERROR, "an outgoing message could not be sent"), e);
    }

    /** Answers a plain HTTP request (or a refused upgrade) and closes once the answer is written. */
    void respond(byte[] response) {
        state = State.HTTP_RESPONSE;
        outbox.enqueue(response);
        outbox.enqueueClose(new byte[0]);
        clock.deadlineIn(config.closeTimeoutMillis());
        reading.hold();
        outbox.closeWhenWritten(true);
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

    /**
     * Whether the close frame is still on its way behind accepted messages: a worker is compressing
     * them, or the peer took some of them within the close timeout. The timeout cuts a peer that
     * stopped reading, not one still reading what we promised to deliver.
     */
    boolean closeFrameStillMoving(long now) {
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
        server.limits().handshakes.done(self());
        outbox.discard();
        input.closed();
        if (codec != null) {
            codec.release();
        }
        socket.unwatch();
        try {
            transport.close();
        } catch (IOException ignored) {
            // nothing more to do with a socket we are dropping
        }
        server.registry().closed(id, handle != null);
        if (handle != null) {
            CloseStatus status = closeStatus == null ? CloseStatus.LOST : closeStatus;
            calls.closed(status.code(), status.reason());
        }
    }
}
