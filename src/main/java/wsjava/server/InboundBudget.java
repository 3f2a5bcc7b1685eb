package wsjava.server;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The bytes of incoming messages (and of input read but not yet parsed) buffered across all
 * connections, against one server-wide limit, so that {@code maxMessageSize x maxConnections} can
 * never exhaust the heap. A connection's buffer grows only by a reservation granted here, asked for
 * before the bytes are allocated (inside the inflation loop too); a connection refused stops where
 * it is and waits, keeping what it read (TCP pushes back on its client); nothing is lost.
 *
 * <p>So that buffered halves of messages can never block everyone for good, one connection at a
 * time may hold the <em>overdraft</em>: its reservations are granted past the limit, up to the hard
 * limit, until its message is complete. Only a connection with input in hand gets it (it asks when
 * it needs to grow, or waits with the input it could not take), waiting connections get it in the
 * order they began to wait, and a holder must keep making progress to keep it (see
 * {@link ConnectionAllowance}): memory past the limit belongs to one moving message at a time, so the
 * holder can always finish a message up to the hard limit.
 *
 * <p>Output held past the server's {@link OutputBudget} takes this budget's room first, the
 * overdraft's too: a message assembled now is echoed or relayed into output, and each fresh
 * connection that does not read could add one more echo before it is seen not to. So what messages
 * hold, coming in and going out, stays within the two budgets and the overdraft. Output drains as
 * clients read or as those that stall are dropped ({@link Outbox}).
 */
final class InboundBudget {

    private final long limit;
    private final long hardLimit;
    private final OutputBudget output;
    private final AtomicLong used = new AtomicLong();
    /** The part of {@code used} that is input carried over (bytes as they arrived, one read a connection at most). */
    private final AtomicLong carried = new AtomicLong();
    private final AtomicReference<ServerConnection> overdraft = new AtomicReference<>();
    /** Connections waiting for room, in the order they began to. */
    private final ConcurrentLinkedDeque<ServerConnection> waiting = new ConcurrentLinkedDeque<>();

    /**
     * @param limit the budget; the overdraft may take message buffers to {@code limit + max(limit / 2,
     *              largestBuffer)}: others hold at most the limit, so its holder can always finish a message
     * @param largestBuffer the buffer of the largest message allowed, as the pool rounds it up
     * @param output the server's output budget, whose excess counts here
     */
    InboundBudget(long limit, long largestBuffer, OutputBudget output) {
        this.limit = limit;
        this.hardLimit = limit + Math.max(limit / 2, largestBuffer);
        this.output = output;
    }

    /**
     * Grants {@code bytes} more to {@code connection}: within the limit, or past it with the
     * overdraft while message buffers (carried input aside) stay within the hard limit.
     */
    boolean tryReserve(ServerConnection connection, long bytes) {
        long now = used.addAndGet(bytes);
        long excess = output.excess();
        if (now + excess <= limit || (now - carried.get() + excess <= hardLimit && tryOverdraft(connection))) {
            return true;
        }
        used.addAndGet(-bytes);
        return false;
    }

    /** A correction once a connection's real holdings are known: its buffers ({@code buffers}) and its carried input. */
    void add(long buffers, long carriedInput) {
        used.addAndGet(buffers + carriedInput);
        carried.addAndGet(carriedInput);
    }

    long used() {
        return used.get();
    }

    long limit() {
        return limit;
    }

    boolean over() {
        return used.get() > limit;
    }

    /** Low enough again for every waiting connection to go on: a quarter below the limit, so pauses don't flap. */
    boolean roomToResume() {
        return used.get() + output.excess() <= limit - limit / 4;
    }

    /** Room for idle connections to keep small buffers: the budget is less than half used. */
    boolean roomToKeep() {
        return used.get() <= limit / 2;
    }

    /** The overdraft for {@code connection} if it is free and nobody waits before it. */
    boolean tryOverdraft(ServerConnection connection) {
        if (overdraft.get() == connection) {
            return true;
        }
        ServerConnection first = waiting.peek();
        return (first == null || first == connection) && overdraft.compareAndSet(null, connection);
    }

    boolean holdsOverdraft(ServerConnection connection) {
        return overdraft.get() == connection;
    }

    void releaseOverdraft(ServerConnection connection) {
        overdraft.compareAndSet(connection, null);
    }

    /** {@code connection} starts (joining the end of the line) or stops waiting for room. */
    void waiting(ServerConnection connection, boolean starts) {
        if (starts) {
            waiting.addLast(connection);
        } else {
            waiting.remove(connection);
        }
    }

    /** Whether anyone other than {@code connection} waits for room. */
    boolean othersWait(ServerConnection connection) {
        for (ServerConnection c : waiting) {
            if (c != connection) {
                return true;
            }
        }
        return false;
    }
}
