package wsjava.server;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One I/O thread's part of the server's counters ({@link ServerStats}): written by that thread
 * alone, so a count is a plain add and a release store, with no atomic read-modify-write per
 * message (four of them, through the server's shared adders, were 0.7% of its CPU at 64 B). Other
 * threads read them with acquire loads.
 */
final class LoopCounters {

    static final int MESSAGES_IN = 0, MESSAGES_OUT = 1, BYTES_IN = 2, BYTES_OUT = 3;
    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] counts = new long[4];

    /** On the owning loop's thread only. */
    void add(int counter, long n) {
        COUNT.setRelease(counts, counter, counts[counter] + n);
    }

    long get(int counter) {
        return (long) COUNT.getAcquire(counts, counter);
    }
}
