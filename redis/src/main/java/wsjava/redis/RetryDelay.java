package wsjava.redis;

import java.util.concurrent.ThreadLocalRandom;

/** Reconnect delays for one Redis connection: doubling from a minimum to a maximum, jittered, reset once connected. */
final class RetryDelay {

    private final long min;
    private final long max;
    private long next;

    RetryDelay(long min, long max) {
        this.min = min;
        this.max = max;
        this.next = min;
    }

    /** The delay before the next attempt, in its upper half at random; the one after is twice as long. */
    long nextMillis() {
        long base = next;
        next = Math.min(max, next * 2);
        return base - ThreadLocalRandom.current().nextLong(base / 2 + 1);
    }

    void reset() {
        next = min;
    }

    /** Sleeps; false when interrupted (the fan-out is closing). */
    boolean sleep() {
        try {
            Thread.sleep(nextMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
