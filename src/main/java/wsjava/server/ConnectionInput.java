package wsjava.server;

import java.nio.ByteBuffer;
import wsjava.protocol.CloseCodes;
import wsjava.protocol.CloseException;
import wsjava.protocol.MessageAssembler;

/**
 * A connection's way in, on its I/O thread: each read is parsed in one pass within the
 * connection's {@link ConnectionAllowance}; what a pass could not take is carried over
 * ({@link CarriedInput}) and parsed first when the connection may go on: at the next loop pass
 * after a yield, on the timer once there is room or the overdraft, when the server's reading
 * resumes. It also fails (1008) a message whose sender went silent past the partial-message
 * timeout, and one that held memory past the budget's limit and stopped moving (see
 * {@link ConnectionAllowance#check}).
 */
final class ConnectionInput {

    /** Its loop, read gate, clock and server are the connection's: not kept again here. */
    private final ServerConnection connection;
    final ConnectionAllowance allowance;
    /** Null unless input is carried over: made when a pass leaves some, dropped once it is parsed. */
    private CarriedInput carried;
    /** A pass is running: a listener's call must not start another on the same input. */
    private boolean inPass;
    /** The loop will continue this connection's carried input at its next pass. */
    private boolean continueQueued;

    ConnectionInput(ServerConnection connection, WebSocketServer server) {
        this.connection = connection;
        this.allowance = new ConnectionAllowance(connection, server.limits().inbound, server);
    }

    /** Whether input read earlier waits to be parsed (then nothing more is read). */
    boolean carrying() {
        return carried != null;
    }

    /** The memory the input carried over holds (what the inbound budget counts). */
    private int carriedBytes() {
        return carried == null ? 0 : carried.capacity();
    }

    /** How much the next read may take. */
    int window() {
        // Near the limit already (where refused connections wait to resume), not only past it; the
        // overdraft's holder must be able to finish its message.
        InboundBudget budget = connection.server.limits().inbound;
        return connection.reading.window(!budget.roomToResume() && !budget.holdsOverdraft(connection));
    }

    /**
     * The socket is readable: reads (unless input is carried over) and parses what came, in one pass.
     * Returns whether the server, not the peer, is what a socket still in its handshake waits for
     * (it is not read, or its TLS records were taken or its TLS tasks run): the handshake limiter's
     * reason to keep it. Bytes that leave a request head incomplete are no such reason, so a
     * slowloris that drips a byte at a time is not kept for it.
     */
    boolean read(ByteBuffer buffer, Transport transport) {
        ReadGate reading = connection.reading;
        if (reading.upgradeWaits()) {
            return true;     // no room for its open event: its request head waits in the socket
        }
        boolean topUp = carrying() && reading.suspendedOpen();
        if (carrying() && !connection.isDraining() && !topUp) {
            return true;     // what was read before is parsed first
        }
        buffer.clear();
        buffer.limit(window());
        if (!buffer.hasRemaining()) {
            return true;     // no room to read into: the server's wait, not the peer's
        }
        int n;
        try {
            n = transport.read(buffer);
        } catch (java.io.IOException e) {
            connection.lost("connection lost: " + e.getMessage(), e);
            return false;
        }
        if (n < 0) {
            connection.lost(connection.isOpen() ? "connection closed without a close frame" : "connection closed", null);
            return false;
        }
        boolean serverWork = transport.progressed();
        if (n == 0 || connection.isDraining()) {
            return serverWork;     // while lingering, what arrives is read only to be dropped
        }
        connection.clock.heard();
        allowance.received(n);
        connection.server.stats().count(connection.loop, LoopCounters.BYTES_IN, n);
        buffer.flip();
        if (topUp) {
            carried.append(buffer);     // nothing is parsed while suspended: read on only to see a client leave
            afterPass();
        } else {
            pass(buffer);
        }
        return serverWork;
    }

    /** Parses {@code input} in one pass; keeps what the pass could not take. */
    void pass(ByteBuffer input) {
        if (inPass) {
            return;          // called back from inside this connection's own pass: it goes on where it is
        }
        inPass = true;
        allowance.newPass();
        boolean keep = false;
        try {
            keep = connection.consume(input);
        } finally {
            if (keep && input.hasRemaining()) {
                if (carried == null) {
                    carried = new CarriedInput();
                }
                carried.keep(input);
            } else {
                carried = null;
            }
            inPass = false;
            afterPass();
        }
    }

    /** Asks the loop to go on with the carried input at its next pass (once, however often asked). */
    void continueSoon() {
        if (!continueQueued && carried != null) {
            continueQueued = true;
            connection.loop.continueSoon(connection);
        }
    }

    /** Goes on with carried input (a loop pass after a yield, or a retry). */
    void continueCarried() {
        continueQueued = false;
        if (carried != null) {
            pass(carried.bytes());
        }
    }

    private void afterPass() {
        boolean closed = account();
        connection.reading.carrying(carriedBytes());
        boolean yielded = allowance.refusal() == ConnectionAllowance.Refusal.WORK && carried != null;
        connection.reading.passEnded(yielded);
        if (yielded && !closed) {
            continueSoon();
        }
    }

    /** The parser and assembler were dropped at rest: the buffer they kept and the room share go too. */
    void atRest() {
        allowance.atRest();
        account();
    }

    /** Tells the budget what this connection holds now; returns whether it is closed. */
    private boolean account() {
        boolean closed = connection.isClosed();
        allowance.account(connection.assembler(), carriedBytes(), closed);
        return closed;
    }

    /** A message failed as stalled is dead: its buffers and the input after it go back to the budget at once. */
    private void giveBackStalledMessage() {
        carried = null;
        MessageAssembler assembler = connection.assembler();
        if (assembler != null) {
            assembler.abandonMessage();
        }
        allowance.account(assembler, 0, false);
    }

    /**
     * The connection failed or its peer closed: the message in progress can never be delivered, so
     * its memory goes back now, not when the close handshake ends (the peer may drag that out to
     * the close timeout). Inside a pass, the pass's end does the accounting.
     */
    void abandonMessage() {
        MessageAssembler assembler = connection.assembler();
        if (assembler == null || !assembler.messageInProgress()) {
            return;
        }
        if (inPass) {
            assembler.abandonMessage();
        } else {
            giveBackStalledMessage();
        }
    }

    /** The connection ended: what it held goes back to the budget. */
    void closed() {
        carried = null;
        allowance.account(null, 0, true);
    }

    /** A timer pass: retries a stopped pass when it may go on; fails a message whose sender went silent. */
    void onTimer(long now) {
        // An application's pause is not the server's doing: its time counts, or a paused holder keeps the overdraft for good.
        ReadGate reading = connection.reading;
        ConnectionAllowance.Verdict verdict = allowance.check(now, reading.isReading() || reading.isHeld() || reading.isAppPaused());
        if (verdict == ConnectionAllowance.Verdict.STALLED) {
            if (connection.isOpen()) {
                connection.failInput(new CloseException(CloseCodes.POLICY_VIOLATION, "message stalled while others waited for the"
                        + " server's inbound budget (under " + ConnectionAllowance.MIN_PROGRESS_BYTES / 1024 + " KiB in a second)"));
            }
            giveBackStalledMessage();      // closing too: the overdraft was taken from it, so must its memory past the limit be
            return;
        }
        if (verdict == ConnectionAllowance.Verdict.RETRY) {
            reading.update();
            continueCarried();
        }
        MessageAssembler assembler = connection.assembler();
        if (assembler == null || !assembler.messageInProgress() || carried != null || !reading.isReading()) {
            connection.clock.notWaitingOnPeer(now);       // not the peer's silence: we are not reading it
            return;
        }
        long timeout = connection.config.partialMessageTimeoutMillis();
        if (timeout > 0 && connection.isOpen() && connection.clock.peerSilentFor(now, timeout)) {
            connection.failInput(new CloseException(CloseCodes.POLICY_VIOLATION, "message not completed: nothing received for "
                    + timeout + " ms"));
        }
    }
}
