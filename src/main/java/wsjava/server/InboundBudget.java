package wsjava.server;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The bytes of incoming messages buffered across all connections, against one server-wide limit,
 * so that {@code maxMessageSize x maxConnections} can never exhaust the heap. A connection that is
 * assembling a message while the server is over the limit stops reading (TCP pushes back on its
 * client) instead of failing; nothing it sent is lost.
 *
 * <p>So that buffered halves of messages can never block everyone for good, one connection at a
 * time may hold the <em>overdraft</em>: it goes on reading past the limit (by at most one message,
 * which the per-message limit bounds) until its message is complete. A holder that stops sending
 * gives the overdraft up, so paused connections take turns.
 */
final class InboundBudget {

    private final long limit;
    private final AtomicLong used = new AtomicLong();
    private final AtomicReference<ServerConnection> overdraft = new AtomicReference<>();

    InboundBudget(long limit) {
        this.limit = limit;
    }

    void add(long delta) {
        used.addAndGet(delta);
    }

    long used() {
        return used.get();
    }

    boolean over() {
        return used.get() > limit;
    }

    /** Low enough again for every paused connection to read: a quarter below the limit, so pauses don't flap. */
    boolean roomToResume() {
        return used.get() <= limit - limit / 4;
    }

    boolean tryOverdraft(ServerConnection connection) {
        return overdraft.get() == connection || overdraft.compareAndSet(null, connection);
    }

    boolean holdsOverdraft(ServerConnection connection) {
        return overdraft.get() == connection;
    }

    void releaseOverdraft(ServerConnection connection) {
        overdraft.compareAndSet(connection, null);
    }
}
