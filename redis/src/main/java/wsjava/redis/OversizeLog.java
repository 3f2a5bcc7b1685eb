package wsjava.redis;

import java.lang.System.Logger.Level;

/** Says that a message from Redis was over the server's limit and dropped, at most once every ten seconds. */
final class OversizeLog {

    private static final long INTERVAL_NANOS = 10_000_000_000L;

    private long lastNanos;
    private boolean logged;

    synchronized void dropped(long size, int limit, long total) {
        long now = System.nanoTime();
        if (logged && now - lastNanos < INTERVAL_NANOS) {
            return;
        }
        logged = true;
        lastNanos = now;
        RedisLinks.log(Level.WARNING, "dropped a message of " + size + " bytes from Redis: over the server's message limit of "
                + limit + " (" + total + " dropped so far)", null);
    }
}
