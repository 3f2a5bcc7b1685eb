package wsjava.server;

/**
 * A connection's times, all from {@link System#nanoTime()}: the deadline of its current phase
 * (the handshake, the close), when the peer was last heard from, and when we last pinged it.
 */
final class ConnectionClock {

    private long deadline;
    private long lastHeard;
    private long lastPing;

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

    void heard(long now) {
        lastHeard = Math.max(lastHeard, now);
    }

    long lastHeard() {
        return lastHeard;
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
