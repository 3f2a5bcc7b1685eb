package wsjava.server;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's direct (off-heap) memory: its limit (-XX:MaxDirectMemorySize, by default the maximum
 * heap) and what all direct buffers take now. The server asks before it allocates a large direct
 * buffer, because the JDK's own answer to a full limit is to collect, sleep up to half a second on
 * the calling thread (an I/O thread) and then throw.
 */
final class DirectMemory {

    private static final long MAX = readMax();
    private static final BufferPoolMXBean DIRECT = directPool();
    /** At most one collection asked for per this many nanoseconds. */
    private static final long COLLECTION_INTERVAL_NANOS = 1_000_000_000L;
    /** Counts the times direct memory was short: every pool lets its free buffers go when it sees this change. */
    private static final java.util.concurrent.atomic.AtomicLong shortages = new java.util.concurrent.atomic.AtomicLong();
    private static final java.util.concurrent.atomic.AtomicLong LAST_COLLECTION = new java.util.concurrent.atomic.AtomicLong(System.nanoTime());

    private DirectMemory() {
    }

    /** The most direct memory the JVM may hold. */
    static long max() {
        return MAX;
    }

    /** Whether {@code bytes} more fit below seven eighths of the limit (the rest is left to the JDK's socket copies and others). */
    static boolean hasRoomFor(long bytes) {
        return DIRECT == null || DIRECT.getTotalCapacity() + bytes <= MAX - MAX / 8;
    }

    /**
     * Direct buffers dropped by their owners are freed only when the collector finds them: when
     * memory is short, a collection is asked for (on a thread of its own, at most once a second),
     * so the buffers pools let go of come back for the connections waiting.
     */
    static void requestCollection() {
        shortages.incrementAndGet();
        long last = LAST_COLLECTION.get();
        long now = System.nanoTime();
        if (now - last > COLLECTION_INTERVAL_NANOS && LAST_COLLECTION.compareAndSet(last, now)) {
            Thread collector = new Thread(System::gc, "wsjava-direct-memory");
            collector.setDaemon(true);
            collector.start();
        }
    }

    /** How many times direct memory has been short so far (see {@link DirectPool#trimIfShort}). */
    static long shortages() {
        return shortages.get();
    }

    private static long readMax() {
        try {
            String flag = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                    .getVMOption("MaxDirectMemorySize").getValue();
            long value = Long.parseLong(flag);
            return value > 0 ? value : Runtime.getRuntime().maxMemory();
        } catch (RuntimeException | LinkageError e) {     // not HotSpot, or no jdk.management: the JDK's default
            return Runtime.getRuntime().maxMemory();
        }
    }

    private static BufferPoolMXBean directPool() {
        try {
            for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
                if (pool.getName().equals("direct")) {
                    return pool;
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // no management: only the JDK's own check remains
        }
        return null;
    }
}
