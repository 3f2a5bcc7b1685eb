package wsjava.server;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import wsjava.protocol.HandshakeException;
import wsjava.protocol.HttpRequest;

/**
 * Who may upgrade and to which listener. First RFC 6455 section 10.2: browsers only from allowed
 * origins, and, when there is a token, only clients that present it. Then the route for the path
 * and the application's {@link UpgradeHandler}. A server bound beyond loopback gets a token even when none
 * was configured: there any machine on the network could connect, and a kernel that evaluates what
 * arrives would run its code. Its own origins (every address it listens on) are allowed, so the demo
 * page works from the LAN.
 */
final class UpgradePolicy {

    private final ServerConfig config;
    private final Set<String> allowedOrigins = new LinkedHashSet<>();
    private final String token;
    private final boolean tokenGenerated;
    private final RefusalLog refusals = new RefusalLog();

    UpgradePolicy(ServerConfig config, int port) {
        this.config = config;
        boolean exposed = !isLoopback(config.host());
        this.tokenGenerated = config.accessToken() == null && (exposed || config.requireToken()) && !config.allowNoToken();
        if (config.allowHostOrigin() && !exposed) {
            ServerLog.log(System.Logger.Level.WARNING, "allowHostOrigin on a loopback server: an Origin matching the request's host is"
                    + " accepted only through a proxy (X-Forwarded-For), never from a browser directly (DNS rebinding)", null);
        }
        this.token = tokenGenerated ? newToken() : config.accessToken();
        for (String origin : ownOrigins(config.host(), port)) {
            allowedOrigins.add(config.tls() == null ? origin : "https" + origin.substring(4));   // our pages come over https then
        }
        for (String origin : config.allowedOrigins()) {
            allowedOrigins.add(origin.toLowerCase(Locale.ROOT));
        }
    }

    /** The token upgrades must carry, or null when none is required. */
    String token() {
        return token;
    }

    /** Whether the token was made up because the server is exposed and none was given. */
    boolean tokenGenerated() {
        return tokenGenerated;
    }

    /**
     * The decision for an upgrade request, or a {@link HandshakeException}: 403 for an origin that
     * may not connect, 401 for a missing or wrong token, 404 for a path without a route, the
     * handler's refusal, 500 when the handler fails.
     */
    UpgradeDecision admit(HttpRequest request, String remoteAddress, WebSocketListener serverListener) {
        checkOriginAndToken(request);
        WebSocketListener routed = config.routes().isEmpty() ? serverListener : config.routes().get(request.path());
        if (routed == null) {
            throw new HandshakeException(404, "no WebSocket endpoint at " + request.path());
        }
        UpgradeHandler handler = config.upgradeHandler();
        if (handler == null) {
            return UpgradeDecision.accept().listener(routed);
        }
        UpgradeDecision decision;
        try {
            decision = handler.decide(new UpgradeRequest(request, remoteAddress));
        } catch (Throwable e) {   // the application's bug: a 500 for this client, the loop goes on
            ServerLog.log(System.Logger.Level.ERROR, "upgrade handler failed for " + request.path(), e);
            throw new HandshakeException(500, "upgrade handler failed");
        }
        if (decision == null) {
            throw new HandshakeException(500, "upgrade handler gave no decision");
        }
        if (!decision.accepted()) {
            throw new HandshakeException(decision.rejectStatus(), decision.rejectReason());
        }
        return decision.listener(decision.listenerOr(routed));
    }

    private void checkOriginAndToken(HttpRequest request) {
        String origin = request.header("Origin");
        if (origin != null && !config.allowAnyOrigin() && !allowedOrigins.contains(origin.toLowerCase(Locale.ROOT))
                && !(config.allowHostOrigin() && originMatchesHost(request, origin))) {
            String shown = RefusalLog.printable(origin);
            refusals.refused("origin " + shown, unreported -> "refused a WebSocket upgrade from a page at " + shown
                    + " (403, origin not allowed); if that page may connect, start the server with --allow-origin " + shown
                    + RefusalLog.more(unreported));
            throw new HandshakeException(403, "origin " + origin + " is not allowed");
        }
        if (token != null && !tokenMatches(request, token)) {
            refusals.refused("token", unreported -> "refused a WebSocket upgrade without the right access token (401); clients send"
                    + " ?token=... or 'Authorization: Bearer ...' with the server's token" + RefusalLog.more(unreported));
            throw new HandshakeException(401, "missing or wrong access token");
        }
    }

    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;    // binding it fails anyway
        }
    }

    private static String newToken() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);   // URL-safe: ?token= needs no escaping
    }

    /** The origins of pages this server serves itself: the bound address, and for loopback or wildcard binds the local names. */
    private static List<String> ownOrigins(String host, int port) {
        List<String> own = new ArrayList<>();
        own.add("http://" + bracketed(host) + ":" + port);
        InetAddress bound;
        try {
            bound = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return own;
        }
        if (bound.isLoopbackAddress() || bound.isAnyLocalAddress()) {
            own.add("http://localhost:" + port);
            own.add("http://127.0.0.1:" + port);
            own.add("http://[::1]:" + port);
        }
        if (bound.isAnyLocalAddress()) {
            for (InetAddress address : interfaceAddresses()) {
                own.add("http://" + bracketed(address.getHostAddress().replaceAll("%.*$", "")) + ":" + port);
            }
            try {
                own.add("http://" + InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT) + ":" + port);
            } catch (UnknownHostException ignored) {
                // no host name to add
            }
        }
        return own;
    }

    private static List<InetAddress> interfaceAddresses() {
        List<InetAddress> addresses = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                addresses.addAll(Collections.list(nic.getInetAddresses()));
            }
        } catch (SocketException ignored) {
            // no interfaces to list: only the names above
        }
        addresses.removeIf(a -> a instanceof Inet6Address && a.isLinkLocalAddress());   // browsers can't use zone ids
        return addresses;
    }

    private static String bracketed(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /**
     * Whether the Origin names the host a reverse proxy forwarded the request for: only a request
     * that came through a proxy (it says so with X-Forwarded-For or Forwarded, which a browser's
     * WebSocket cannot send, so a DNS-rebinding page talking to us directly never matches), with an
     * http or https Origin whose host and port are the forwarded host (X-Forwarded-Host, else Host).
     * The forwarded scheme is not compared: behind two proxies (TLS outside, WLJS's plain nginx
     * inside) the inner one says http for an https page.
     */
    static boolean originMatchesHost(HttpRequest request, String origin) {
        if (request.header("X-Forwarded-For") == null && request.header("Forwarded") == null) {
            return false;
        }
        int at = origin.indexOf("://");
        if (at < 0) {
            return false;
        }
        String scheme = origin.substring(0, at).toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return false;
        }
        String forwardedHost = request.header("X-Forwarded-Host");
        String host = forwardedHost != null ? forwardedHost : request.header("Host");
        return host != null && origin.substring(at + 3).equalsIgnoreCase(host.trim());
    }

    private static boolean tokenMatches(HttpRequest request, String token) {
        String offered = request.queryParameter("token");
        String auth = request.header("Authorization");
        if (offered == null && auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            offered = auth.substring(7).trim();
        }
        return offered != null && MessageDigest.isEqual(offered.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }
}
