package wsjava.server;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * Sockets that have not upgraded yet (a request head or TLS handshake in progress, or an HTTP answer
 * being written), counted apart from the connection limit so that half-finished handshakes can never
 * fill it: beyond {@code cap} of them, or beyond {@code perAddress} from one address, the oldest (of
 * all, or of that address) is pushed out. A client that completes its handshake in time is never
 * the oldest for long; a slowloris that holds sockets open is.
 */
final class HandshakeLimiter {

    private final int cap;
    private final int perAddress;
    private final LinkedHashSet<ServerConnection> all = new LinkedHashSet<>();
    private final Map<String, ArrayDeque<ServerConnection>> byAddress = new HashMap<>();

    HandshakeLimiter(ServerConfig config) {
        this.cap = Math.min(config.maxHandshakes(), Math.max(1, config.maxConnections() / 2));
        this.perAddress = config.maxHandshakesPerAddress();
    }

    /** Counts {@code connection} in; returns the one it pushes out, or null. */
    synchronized ServerConnection admit(ServerConnection connection, String address) {
        all.add(connection);
        ArrayDeque<ServerConnection> mine = byAddress.computeIfAbsent(address, a -> new ArrayDeque<>());
        mine.add(connection);
        ServerConnection oldest = null;
        if (mine.size() > perAddress) {
            oldest = mine.peekFirst();
        } else if (all.size() > cap) {
            Iterator<ServerConnection> first = all.iterator();
            oldest = first.next();
        }
        if (oldest != null) {
            done(oldest, address(oldest));
        }
        return oldest;
    }

    /** {@code connection} upgraded or closed. */
    synchronized void done(ServerConnection connection, String address) {
        if (all.remove(connection)) {
            ArrayDeque<ServerConnection> mine = byAddress.get(address);
            if (mine != null) {
                mine.remove(connection);
                if (mine.isEmpty()) {
                    byAddress.remove(address);
                }
            }
        }
    }

    /** The address part of {@code ip:port}. */
    static String addressOf(String remote) {
        int colon = remote.lastIndexOf(':');
        return colon < 0 ? remote : remote.substring(0, colon);
    }

    private static String address(ServerConnection connection) {
        return addressOf(connection.remoteAddress());
    }

    synchronized int size() {
        return all.size();
    }
}
