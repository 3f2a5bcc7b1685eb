package wsjava.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sockets that have not upgraded yet (a request head or TLS handshake in progress, or an HTTP answer
 * being written), counted apart from the connection limit so that half-finished handshakes cannot
 * fill it. Beyond {@code cap} of them, or beyond {@code perAddress} from one address, the one that
 * has kept the server waiting longest (of all, or of that address) is pushed out.
 *
 * <p>Only a socket that has been in its handshake for {@link #STALE_NANOS} can go, oldest first, and
 * its connection reads it once more before it goes (see {@link ServerConnection#pushOutIfWaiting()}):
 * it stays if that read completes its request (it upgrades) or shows the server was the one waiting
 * (its TLS records were taken or its TLS tasks run, or a full WL queue holds its upgrade back), and
 * is counted in again then. So a burst of complete requests from one address (a reverse proxy, a
 * NAT) is never pushed out while its requests sit unread behind the others, and a slowloris is cut
 * to its share at the next timer pass, however it drips its bytes.
 */
final class HandshakeLimiter {

    /** A socket in its handshake this long (since it came, or the server last kept it waiting) may go. */
    static final long STALE_NANOS = 500_000_000L;

    private final int cap;
    private final int perAddress;
    private final java.util.Set<String> exempt;
    /** When each socket came or was counted in again (System.nanoTime), oldest first: access order moves a recount to the end. */
    private final LinkedHashMap<ServerConnection, Long> all = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<String, LinkedHashMap<ServerConnection, Long>> byAddress = new HashMap<>();
    private final Map<ServerConnection, String> addresses = new HashMap<>();

    HandshakeLimiter(ServerConfig config, java.util.Set<String> trustedProxies) {
        this.cap = Math.min(config.maxHandshakes(), Math.max(1, config.maxConnections() / 2));
        this.perAddress = config.maxHandshakesPerAddress();
        this.exempt = trustedProxies;
    }

    /**
     * Counts {@code connection} in (again, after a read that moved it on) and tells the stale sockets
     * it puts over their share to go; not under the lock, since a socket of this I/O thread is read at once.
     */
    void count(ServerConnection connection, String address) {
        if (connection.handshaking()) {
            admit(connection, address, System.nanoTime()).forEach(ServerConnection::pushOutIfWaiting);
        }
    }

    /**
     * Counts {@code connection} in; returns the sockets it pushes out (stale ones of its address,
     * or of all, over their share), which the caller tells to go.
     */
    synchronized List<ServerConnection> admit(ServerConnection connection, String address, long now) {
        all.put(connection, now);
        addresses.put(connection, address);
        byAddress.computeIfAbsent(address, a -> new LinkedHashMap<>(16, 0.75f, true)).put(connection, now);
        return overShare(address, now);
    }

    /** The timer's pass: what is over its share and stale goes. */
    synchronized List<ServerConnection> enforce(long now) {
        List<ServerConnection> out = new ArrayList<>();
        List<String> over = new ArrayList<>();
        for (Map.Entry<String, LinkedHashMap<ServerConnection, Long>> e : byAddress.entrySet()) {
            if (e.getValue().size() > share(e.getKey())) {
                over.add(e.getKey());
            }
        }
        for (String address : over) {
            trim(byAddress.get(address), share(address), now, out);
        }
        trim(all, cap, now, out);
        return out;
    }

    /** {@code connection} upgraded or closed. */
    synchronized void done(ServerConnection connection) {
        String address = addresses.remove(connection);
        if (address != null) {
            all.remove(connection);
            LinkedHashMap<ServerConnection, Long> mine = byAddress.get(address);
            mine.remove(connection);
            if (mine.isEmpty()) {
                byAddress.remove(address);
            }
        }
    }

    private List<ServerConnection> overShare(String address, long now) {
        LinkedHashMap<ServerConnection, Long> mine = byAddress.get(address);
        if (mine.size() <= share(address) && all.size() <= cap) {
            return java.util.Collections.emptyList();
        }
        List<ServerConnection> out = new ArrayList<>(1);
        trim(mine, share(address), now, out);
        trim(all, cap, now, out);
        return out;
    }

    /** A trusted proxy speaks for many clients: only the cap of all holds for it. */
    private int share(String address) {
        return exempt.contains(address) ? Integer.MAX_VALUE : perAddress;
    }

    /** Takes the oldest of {@code line} out while it is over {@code limit}, stopping at the first that came lately. */
    private void trim(LinkedHashMap<ServerConnection, Long> line, int limit, long now, List<ServerConnection> out) {
        Iterator<Map.Entry<ServerConnection, Long>> stalest = line.entrySet().iterator();
        int size = line.size();
        List<ServerConnection> going = new ArrayList<>();
        while (size > limit && stalest.hasNext()) {
            Map.Entry<ServerConnection, Long> e = stalest.next();
            if (now - e.getValue() < STALE_NANOS) {
                break;
            }
            going.add(e.getKey());
            size--;
        }
        for (ServerConnection c : going) {
            done(c);
            out.add(c);
        }
    }

    /** The address part of {@code ip:port}. */
    static String addressOf(String remote) {
        int colon = remote.lastIndexOf(':');
        return colon < 0 ? remote : remote.substring(0, colon);
    }

    synchronized int size() {
        return all.size();
    }
}
