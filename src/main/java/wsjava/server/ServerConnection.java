package wsjava.server;

import java.nio.ByteBuffer;
import wsjava.protocol.CloseCodes;
import wsjava.protocol.CloseException;
import wsjava.protocol.Handshake;
import wsjava.protocol.HandshakeException;
import wsjava.protocol.HttpRequest;
import wsjava.protocol.OpCode;

/**
 * A connection as its I/O thread drives it: what {@link IoLoop} finds by its socket. It reads, takes the request head to the upgrade, then frames, flushes, and
 * checks the deadlines. The states and how a connection ends are in {@link ConnectionStateMachine}.
 * Reading, parsing and listener calls happen on the I/O thread; sends may come from any thread.
 */
final class ServerConnection extends ConnectionStateMachine {

    private final String remoteAddress;
    /** Until the upgrade: the request head's parser; then null. */
    private UpgradeStage upgradeStage;

    ServerConnection(ConnectionSocket socket, IoLoop loop, WebSocketServer server) {
        super(socket, loop, server);
        this.upgradeStage = new UpgradeStage(server);
        this.remoteAddress = socket.remoteAddress();
    }

    @Override
    ServerConnection self() {
        return this;
    }

    /** Reading the request head: the upgrade is next (a TLS handshake is done). */
    boolean readsHead() { return state == State.HANDSHAKE && transport.ready(); }

    void pauseReading(boolean paused) {
        loop.execute(() -> reading.appPaused(paused));
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

    /** Its loop watches the socket now: the handshake limiter counts it. */
    void registered() {
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


    @Override
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
            if ((state == State.OPEN || state == State.CLOSING) && bytes.hasRemaining() && codec.resume()) {
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

    /** The open connection's message assembler, or null before the upgrade and while its input is at rest (see {@link OpenCodec}). */
    wsjava.protocol.MessageAssembler assembler() {
        return codec == null ? null : codec.assembler();
    }

    /** Returns true when the connection just opened and bytes after the request may hold frames. */
    private boolean readRequest(ByteBuffer buffer) {
        HttpRequest parsed = upgradeStage.parse(buffer);
        if (parsed == null) {
            return false;
        }
        if (!Handshake.isUpgradeRequest(parsed)) {
            respond(server.answers().plain(parsed));
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
        server.registry().opened(handle);
        return calls.opened();
    }

    /** Checks deadlines; called by the I/O thread a few times a second. */
    void onTimer(long now) {
        clock.timerPass(now);
        if (state == State.CLOSING && outbox.hasOutput()) {
            flush();     // a slow reader frees the socket's buffer too slowly to make it writable again: what fits now is progress
        }
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
        if (codec != null && codec.onTimer(now, input.carrying())) {
            input.atRest();
        }
        if (state == State.OPEN || state == State.CLOSING) {
            input.onTimer(now);
        }
    }
}
