package wsjava.redis;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import wsjava.server.WebSocketServer;

/**
 * A Redis given as a URL, {@code redis://HOST:PORT} or {@code redis://:PASSWORD@HOST:PORT}: what
 * {@code ./wsjava serve --redis URL} reads (the library's command line finds this class by name).
 */
public final class RedisUrl {

    private RedisUrl() {
    }

    /** The fan-out settings the URL names; IllegalArgumentException says what is wrong with it. */
    public static RedisFanoutConfig parse(String url) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a URL: " + url);
        }
        if (!"redis".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("a Redis URL looks like redis://HOST:PORT, not " + url);
        }
        RedisFanoutConfig config = new RedisFanoutConfig().host(uri.getHost()).port(uri.getPort() < 0 ? 6379 : uri.getPort());
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null && userInfo.contains(":")) {
            config.password(URLDecoder.decode(userInfo.substring(userInfo.indexOf(':') + 1), StandardCharsets.UTF_8));
        }
        return config;
    }

    /** Fans {@code server}'s topics out through the Redis at {@code url}; closing the result stops it. */
    public static RedisFanout start(WebSocketServer server, String url) {
        return RedisFanout.start(server, parse(url));
    }
}
