package wsjava.server;

import wsjava.protocol.HttpRequest;

/**
 * Who answers an HTTP request on the server's port: the {@link UpgradePolicy} for an upgrade, the
 * {@link HttpFallback} for plain HTTP. The policy is made at start, as it needs the bound port and
 * may make up a token; until then the configured token is the one reported.
 */
final class HttpAnswers {

    private final ServerConfig config;
    private final WebSocketListener listener;
    private final HttpFallback fallback;
    private volatile UpgradePolicy policy;

    HttpAnswers(ServerConfig config, WebSocketListener listener) {
        this.config = config;
        this.listener = listener;
        this.fallback = new HttpFallback(config.page() != null ? config.page() : config.serveDemoPage() ? DemoPage.html() : null);
    }

    /** The server is bound to {@code port}: upgrades are judged from now on. */
    void started(int port) {
        policy = new UpgradePolicy(config, port);
    }

    /** The server's listener: it serves every path, or is null when the config's routes decide. */
    WebSocketListener listener() {
        return listener;
    }

    /** Who may upgrade and to which listener; throws a HandshakeException with the refusal's status. */
    UpgradeDecision admit(HttpRequest request, String remoteAddress) {
        return policy.admit(request, remoteAddress, listener);
    }

    /** The answer to a plain HTTP request on this port. */
    byte[] plain(HttpRequest request) {
        return fallback.answer(request);
    }

    String token() {
        return policy == null ? config.accessToken() : policy.token();
    }

    boolean tokenGenerated() {
        return policy != null && policy.tokenGenerated();
    }
}
