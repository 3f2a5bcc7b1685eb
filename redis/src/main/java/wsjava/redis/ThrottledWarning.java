package wsjava.redis;

import java.lang.System.Logger.Level;
import java.util.function.Supplier;

/**
 * A warning said at most once every ten seconds: what it reports (dropped publishes, oversized
 * messages) comes many at a time, and each line carries the running total.
 */
final class ThrottledWarning {

    private static final long INTERVAL_NANOS = 10_000_000_000L;

    private long lastNanos;
    private boolean logged;

    synchronized void say(Supplier<String> message) {
        long now = System.nanoTime();
        if (logged && now - lastNanos < INTERVAL_NANOS) {
            return;
        }
        logged = true;
        lastNanos = now;
        RedisLinks.log(Level.WARNING, message.get(), null);
    }
}
