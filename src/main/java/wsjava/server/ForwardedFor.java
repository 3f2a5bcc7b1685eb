package wsjava.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import wsjava.protocol.HttpRequest;

/**
 * The client's address behind a trusted reverse proxy. Only a connection from a trusted proxy may
 * name its client, in {@code X-Forwarded-For}; the header of anyone else is ignored. Each proxy
 * appends the address it saw, so the list is read from the right: the first hop that is not a
 * trusted proxy is the client (what comes before it could be forged by that client). Anything that
 * is not an IP address stops the walk, and the proxy's own address stands.
 */
final class ForwardedFor {

    static final String HEADER = "x-forwarded-for";

    private ForwardedFor() {
    }

    /** The trusted addresses, normalised as {@link InetAddress#getHostAddress()} prints them. */
    static Set<String> trusted(Collection<String> addresses) {
        Set<String> set = new HashSet<>();
        for (String a : addresses) {
            String literal = literal(a);
            if (literal == null) {
                throw new IllegalArgumentException("a trusted proxy must be an IP address, got " + a);
            }
            set.add(literal);
        }
        return set;
    }

    /**
     * The address to treat as the client's: from {@code X-Forwarded-For} when {@code peer} (ip:port)
     * is a trusted proxy, else {@code peer} itself.
     */
    static String clientOf(HttpRequest request, String peer, Set<String> trusted) {
        if (trusted.isEmpty() || !trusted.contains(HandshakeLimiter.addressOf(peer))) {
            return peer;
        }
        List<String> values = request.headerValues(HEADER);
        String client = null;
        for (int v = values.size() - 1; v >= 0 && client == null; v--) {
            String[] hops = values.get(v).split(",");
            for (int i = hops.length - 1; i >= 0; i--) {
                String hop = literal(hops[i].trim());
                if (hop == null) {
                    return peer;     // not an address: nothing before it can be trusted either
                }
                if (!trusted.contains(hop)) {
                    client = hop;
                    break;
                }
            }
        }
        return client == null ? peer : client;
    }

    /** The normalised form of an IPv4 or IPv6 literal (brackets allowed), else null: never a name lookup. */
    static String literal(String text) {
        String s = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        if (s.isEmpty() || s.length() > 45 || !s.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':')) {
            return null;
        }
        if (s.indexOf(':') < 0 && !s.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            return null;
        }
        try {
            return InetAddress.getByName(s).getHostAddress();      // a literal: parsed, not looked up
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
