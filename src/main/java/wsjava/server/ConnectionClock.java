package wsjava.server;

/**
 * A connection's times, all from {@link System#nanoTime()}: the deadline of its current phase
 * (the handshake, the close), when the peer was last heard from, and when we last pinged it.
 */
final class ConnectionClock {

    private long deadline;
    private long lastHeard;
    private long lastPing;
    /** When the request head must be complete; 0 until the transport is ready for it (after TLS). */
    private long headDeadline;
    /** When we last were not reading the peer (its silence then is not its own). */
    private long notReading;
    private boolean heardSinceTimer;

    ConnectionClock(long now, long handshakeMillis) {
        deadline = now + handshakeMillis * 1_000_000L;
        lastHeard = now;
        lastPing = now;
    }

    /** The current phase must end within {@code millis} from now. */
    void deadlineIn(long millis) {
        deadline = System.nanoTime() + millis * 1_000_000L;
    }

    boolean pastDeadline(long now) {
        return now - deadline > 0;
    }

    /**
     * Whether the request head is overdue: called by the timer while the transport is ready (the
     * head's time starts at the first such call, so a TLS handshake's time is not counted);
     * {@code notRead}: we are not reading it now.
     */
    boolean headOverdue(long now, long millis, boolean notRead) {
        if (notRead) {
            headDeadline = 0;       // we do not read it (its upgrade waits): its time starts again once we do
            return false;
        }
        if (headDeadline == 0) {
            headDeadline = now + millis * 1_000_000L;
        }
        return now - headDeadline > 0;
    }

    /**
     * Bytes came from the peer. They are dated at the next timer pass, late by at most one timer
     * interval and never early, however long the pass that read them ran: a clock read per message
     * cost 0.7% of the server's CPU at 64 B.
     */
    void heard() {
        heardSinceTimer = true;
    }

    /** A timer pass at {@code now}, before any timeout is judged: what was heard since the last one was heard by now. */
    void timerPass(long now) {
        if (heardSinceTimer) {
            heardSinceTimer = false;
            lastHeard = Math.max(lastHeard, now);
        }
    }

    long lastHeard() {
        return lastHeard;
    }

    /** We are not reading the peer now: its silence until now does not count against it. */
    void notWaitingOnPeer(long now) {
        notReading = now;
    }

    /** Whether the peer has sent nothing for {@code millis} while we were reading it. */
    boolean peerSilentFor(long now, long millis) {
        return now - Math.max(lastHeard, notReading) > millis * 1_000_000L;
    }

    /** Nothing heard for longer than {@code idleMillis}; never when it is 0. */
    boolean idle(long now, long idleMillis) {
        return idleMillis > 0 && now - lastHeard > idleMillis * 1_000_000L;
    }

    /** True, once per interval, when a keepalive ping is due; never when the interval is 0. */
    boolean pingDue(long now, long intervalMillis) {
        if (intervalMillis <= 0 || now - lastPing <= intervalMillis * 1_000_000L) {
            return false;
        }
        lastPing = now;
        return true;
    }
}
