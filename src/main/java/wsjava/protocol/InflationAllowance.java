package wsjava.protocol;

/**
 * Inflated bytes that messages may produce past their ratio cap, held by one sender (a client
 * address of a server, or a client connection) or by a whole server: a bucket of {@code capacity} bytes, refilled at
 * {@code perSecond}. A lone legitimate message that compresses very well (16 MiB of zeros is
 * 1,000:1) draws from it and is delivered; a flood of such messages empties it and the next one past
 * its first MiB gets 1009. So the work such messages cost the whole server is bounded per second,
 * however many connections send them, and only a message that arrives while the bucket is empty is
 * refused.
 */
public final class InflationAllowance {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long capacity;
    private final long perSecond;
    private long available;
    private long refilledAt = System.nanoTime();

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
    public synchronized boolean take(long bytes) {
        refill(System.nanoTime());
        if (bytes > available) {
            return false;
        }
        available -= bytes;
        return true;
    }

    /** Puts back {@code bytes} taken a moment ago (never past the capacity). */
    public synchronized void giveBack(long bytes) {
        available = Math.min(capacity, available + bytes);
    }

    /** Takes {@code bytes} from {@code own} and from {@code whole} (null: none), or from neither. */
    public static boolean takeFromBoth(InflationAllowance own, InflationAllowance whole, long bytes) {
        if (!own.take(bytes)) {
            return false;
        }
        if (whole != null && !whole.take(bytes)) {
            own.giveBack(bytes);
            return false;
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
