package wsjava.server;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters a server keeps for its summary: messages and bytes each way, connections over its life.
 * Each I/O thread counts its own ({@link LoopCounters}); other threads count in shared adders.
 */
public final class ServerStats {

    /** Counts made off the loops, one adder per {@link LoopCounters} counter. */
    private final LongAdder[] shared = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};
    final LongAdder connectionsAccepted = new LongAdder();
    /** Every loop's counters, kept after the loop ends (the counts are the server's life's); not the loops themselves. */
    private final List<LoopCounters> loops = new CopyOnWriteArrayList<>();

    public long messagesIn() { return total(LoopCounters.MESSAGES_IN); }
    public long messagesOut() { return total(LoopCounters.MESSAGES_OUT); }
    public long bytesIn() { return total(LoopCounters.BYTES_IN); }
    public long bytesOut() { return total(LoopCounters.BYTES_OUT); }
    public long connectionsAccepted() { return connectionsAccepted.sum(); }

    /** A loop's counters, which count from now on. */
    void add(LoopCounters counters) {
        loops.add(counters);
    }

    /** Counts {@code n} on {@code loop}'s own counters when called on its thread, else in the shared adder. */
    void count(IoLoop loop, int counter, long n) {
        if (loop.inLoop()) {
            loop.counters().add(counter, n);
        } else {
            shared[counter].add(n);
        }
    }

    private long total(int counter) {
        long sum = shared[counter].sum();
        for (LoopCounters counters : loops) {
            sum += counters.get(counter);
        }
        return sum;
    }
}
