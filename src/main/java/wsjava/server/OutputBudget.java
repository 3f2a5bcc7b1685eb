package wsjava.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What all connections' output holds in memory, against one server-wide limit. The inbound budget
 * bounds messages while they are assembled; their echoes, and publishes to subscribers who do not
 * read, live on in outputs that no inbound limit sees, and each output's own limit
 * ({@link ServerConfig#outboundLimitBytes()}) times the connections is no bound at all. Past this
 * limit, clients whose output has stalled are dropped (see {@link Outbox}).
 */
final class OutputBudget {

    private final long limit;
    private final AtomicLong held = new AtomicLong();

    OutputBudget(long limit) {
        this.limit = limit;
    }

    void add(long bytes) {
        held.addAndGet(bytes);
    }

    long held() {
        return held.get();
    }

    boolean over() {
        return held.get() > limit;
    }

    /** What is held past the limit (0 within it): the inbound budget gives up as much room. */
    long excess() {
        return Math.max(0, held.get() - limit);
    }
}
