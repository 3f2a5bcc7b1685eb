package wsjava.server;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's count of sockets (every accepted one, until it is closed: the connection limit
 * counts these) and its open WebSocket connections by id (what listeners and broadcasts see). A
 * connection that leaves it leaves its topics too.
 */
final class ConnectionRegistry {

    private final Map<Long, ConnectionHandle> open = new ConcurrentHashMap<>();
    private final AtomicInteger liveSockets = new AtomicInteger();
    private final ServerStats stats;

    ConnectionRegistry(ServerStats stats) {
        this.stats = stats;
    }

    /** Counts a freshly accepted socket in (and in the stats), or says no when {@code limit} are alive. */
    boolean reserveSocket(int limit) {
        while (true) {
            int now = liveSockets.get();
            if (now >= limit) {
                return false;
            }
            if (liveSockets.compareAndSet(now, now + 1)) {
                stats.connectionsAccepted.increment();
                return true;
            }
        }
    }

    int liveSockets() {
        return liveSockets.get();
    }

    void opened(ConnectionHandle connection) {
        open.put(connection.id(), connection);
    }

    /** A socket closed; {@code wasOpen} when it had been upgraded. */
    void closed(long id, boolean wasOpen) {
        ConnectionHandle handle = wasOpen ? open.remove(id) : null;
        liveSockets.decrementAndGet();
        if (handle != null) {
            handle.leaveTopics();
        }
    }

    Collection<ConnectionHandle> open() {
        return open.values();
    }

    Collection<WebSocketConnection> openView() {
        return Collections.unmodifiableCollection(open.values());
    }

    ConnectionHandle get(long id) {
        return open.get(id);
    }

    int openCount() {
        return open.size();
    }
}
