package wsjava.protocol;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Inflated bytes that messages may produce past their ratio cap, shared by the connections of one
 * server (or held by one client connection): a bucket of {@code capacity} bytes, refilled at
 * {@code perSecond}. A lone legitimate message that compresses very well (16 MiB of zeros is
 * 1,000:1) draws from it and is delivered; a flood of such messages empties it and the next one past
 * its first MiB gets 1009. So the work such messages cost the whole server is bounded per second,
 * however many connections send them, and only a message that arrives while the bucket is empty is
 * refused.
 *
 * <p>One sender must not spend it for everyone: a drawer (a server's client address) whose earlier
 * message drew within the refill time draws its next one only down to half the capacity, so a
 * client that streams such messages leaves the other half to those who have not drawn lately.
 */
public final class InflationAllowance {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long capacity;
    private final long perSecond;
    private long available;
    private long refilledAt = System.nanoTime();
    /** When each drawer last drew, the least recent first; at most {@link #DRAWERS_REMEMBERED}. */
    private final Map<Object, Long> lastDraw = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Long> eldest) {
            return size() > DRAWERS_REMEMBERED;
        }
    };

    /** Drawers remembered: past this many, the one that drew longest ago is forgotten (its next message draws freely). */
    static final int DRAWERS_REMEMBERED = 4096;

    public InflationAllowance(long capacity, long perSecond) {
        if (capacity < 0 || perSecond < 0) {
            throw new IllegalArgumentException("capacity and rate must not be negative");
        }
        this.capacity = capacity;
        this.perSecond = perSecond;
        this.available = capacity;
    }

    /** The default refills one message limit in this many seconds. */
    public static final int REFILL_SECONDS = 30;

    /**
     * The default for a message limit: one such message, then one every {@link #REFILL_SECONDS}.
     * (Two limits a second let a flood of 16 MiB bombs cost the server half a core and a bystander
     * seconds of latency; a message inflated and echoed costs about 0.3 s of CPU.)
     */
    public static InflationAllowance forMessageLimit(long maxMessageBytes) {
        return new InflationAllowance(maxMessageBytes, maxMessageBytes / REFILL_SECONDS);
    }

    /** Takes {@code bytes} if the bucket holds them; false (and nothing taken) if not. */
    public boolean take(long bytes) {
        return take(bytes, 0, null);
    }

    /**
     * What a message of {@code drawer} (null: anyone) must leave in the bucket, asked at its first
     * draw: half the capacity if an earlier message of that drawer drew within the refill time, else 0.
     */
    public synchronized long floorFor(Object drawer) {
        Long last = drawer == null ? null : lastDraw.get(drawer);
        long refillNanos = perSecond == 0 ? Long.MAX_VALUE : capacity * NANOS_PER_SECOND / perSecond;
        return last != null && System.nanoTime() - last < refillNanos ? capacity / 2 : 0;
    }

    /** Takes {@code bytes} if the bucket then still holds {@code floor}; false (and nothing taken) if not. */
    public synchronized boolean take(long bytes, long floor, Object drawer) {
        long now = System.nanoTime();
        refill(now);
        if (bytes > available - floor) {
            return false;
        }
        available -= bytes;
        if (drawer != null) {
            lastDraw.put(drawer, now);
        }
        return true;
    }

    /** What may be taken now. */
    public synchronized long available() {
        refill(System.nanoTime());
        return available;
    }

    private void refill(long now) {
        long elapsed = now - refilledAt;
        if (elapsed <= 0) {
            return;
        }
        long added = (long) (elapsed / (double) NANOS_PER_SECOND * perSecond);
        if (added > 0 || available >= capacity) {
            available = Math.min(capacity, available + added);
            refilledAt = now;
        }
    }
}
