package wsjava.server;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters a server keeps for its summary: messages and bytes each way, connections over its life.
 * Each I/O thread counts its own ({@link LoopCounters}); other threads count in shared adders.
 */
public final class ServerStats {

    private final LongAdder messagesIn = new LongAdder();
    private final LongAdder messagesOut = new LongAdder();
    private final LongAdder bytesIn = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();
    final LongAdder connectionsAccepted = new LongAdder();
    private final List<IoLoop> loops = new CopyOnWriteArrayList<>();

    public long messagesIn() { return messagesIn.sum() + ofLoops(LoopCounters.MESSAGES_IN); }
    public long messagesOut() { return messagesOut.sum() + ofLoops(LoopCounters.MESSAGES_OUT); }
    public long bytesIn() { return bytesIn.sum() + ofLoops(LoopCounters.BYTES_IN); }
    public long bytesOut() { return bytesOut.sum() + ofLoops(LoopCounters.BYTES_OUT); }
    public long connectionsAccepted() { return connectionsAccepted.sum(); }

    /** A loop whose counters count from now on (kept after it ends: the counts are the server's life's). */
    void add(IoLoop loop) {
        loops.add(loop);
    }

    /** Counts {@code n} on {@code loop}'s own counters when called on its thread, else in the shared adder. */
    void count(IoLoop loop, int counter, long n) {
        if (loop.inLoop()) {
            loop.counters().add(counter, n);
        } else {
            (counter == LoopCounters.MESSAGES_IN ? messagesIn : counter == LoopCounters.MESSAGES_OUT ? messagesOut
                    : counter == LoopCounters.BYTES_IN ? bytesIn : bytesOut).add(n);
        }
    }

    private long ofLoops(int counter) {
        long sum = 0;
        for (IoLoop loop : loops) {
            sum += loop.counters().get(counter);
        }
        return sum;
    }
}
