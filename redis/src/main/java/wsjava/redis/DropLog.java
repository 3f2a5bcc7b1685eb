package wsjava.redis;

import java.lang.System.Logger.Level;

/** Says that publishes are being dropped, at most once every ten seconds: a full queue drops many at a time. */
final class DropLog {

    private static final long INTERVAL_NANOS = 10_000_000_000L;

    private long lastNanos;
    private boolean logged;

    synchronized void dropped(long total, String where) {
        long now = System.nanoTime();
        if (logged && now - lastNanos < INTERVAL_NANOS) {
            return;
        }
        logged = true;
        lastNanos = now;
        RedisLinks.log(Level.WARNING, "the queue to Redis at " + where + " is full: publishes reach this server's subscribers only ("
                + total + " dropped so far)", null);
    }
}
