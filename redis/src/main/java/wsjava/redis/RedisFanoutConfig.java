package wsjava.redis;

/**
 * Where the Redis is, who we are to it, and how hard to try. Defaults: 127.0.0.1:6379 without a
 * user, password or TLS (see {@link #url} for {@code redis://user:password@host:port} and
 * {@code rediss://} for TLS), channels
 * named {@code wsjava:<topic>}, 16 MiB of publishes queued for Redis at most, 2 s to connect and
 * for each command, a health ping every 5 s on the subscribing connection, and reconnects 100 ms
 * apart doubling to 5 s.
 */
public final class RedisFanoutConfig {

    private String host = "127.0.0.1";
    private int port = 6379;
    private String password;
    private String user;
    private boolean tls;
    private javax.net.ssl.SSLContext tlsContext;
    private String channelPrefix = "wsjava:";
    private long maxQueuedBytes = 16L << 20;
    private int connectTimeoutMillis = 2_000;
    private int commandTimeoutMillis = 2_000;
    private int healthCheckMillis = 5_000;
    private long minReconnectMillis = 100;
    private long maxReconnectMillis = 5_000;

    public String host() { return host; }
    public int port() { return port; }
    public String password() { return password; }
    public String user() { return user; }
    public boolean tls() { return tls; }
    public javax.net.ssl.SSLContext tlsContext() { return tlsContext; }
    public String channelPrefix() { return channelPrefix; }
    public long maxQueuedBytes() { return maxQueuedBytes; }
    public int connectTimeoutMillis() { return connectTimeoutMillis; }
    public int commandTimeoutMillis() { return commandTimeoutMillis; }
    public int healthCheckMillis() { return healthCheckMillis; }
    public long minReconnectMillis() { return minReconnectMillis; }
    public long maxReconnectMillis() { return maxReconnectMillis; }

    public RedisFanoutConfig host(String value) { host = value; return this; }
    public RedisFanoutConfig port(int value) { port = between(value, 1, 65535, "port"); return this; }
    /** Redis's {@code AUTH} password (null: none). */
    public RedisFanoutConfig password(String value) { password = value; return this; }
    /** The ACL user for {@code AUTH user password} (Redis 6 and later; null: the default user). */
    public RedisFanoutConfig user(String value) { user = value; return this; }
    /** Connects over TLS, checking the certificate against the JVM's trust store and the host name. */
    public RedisFanoutConfig tls(boolean value) { tls = value; return this; }
    /** Connects over TLS with this context's trust (a private CA, a pinned certificate); the host name is checked too. */
    public RedisFanoutConfig tls(javax.net.ssl.SSLContext context) { tls = true; tlsContext = context; return this; }

    /**
     * Sets host, port, user, password and TLS from a URL: {@code redis://[[user]:password@]host[:port]}
     * or {@code rediss://...} for TLS (user and password percent-encoded). The port defaults to 6379.
     */
    public RedisFanoutConfig url(String value) {
        java.net.URI uri = java.net.URI.create(value);
        String scheme = uri.getScheme();
        if (!"redis".equals(scheme) && !"rediss".equals(scheme)) {
            throw new IllegalArgumentException("a Redis URL starts with redis:// or rediss://, not " + value);
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("a Redis URL names a host: " + value);
        }
        host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
        port = uri.getPort() < 0 ? 6379 : between(uri.getPort(), 1, 65535, "port");
        tls = "rediss".equals(scheme);
        String info = uri.getRawUserInfo();
        if (info != null) {
            int colon = info.indexOf(':');
            String name = decode(colon < 0 ? info : info.substring(0, colon));
            user = name.isEmpty() ? null : name;
            password = colon < 0 ? null : decode(info.substring(colon + 1));
            if (colon < 0) {        // redis://secret@host: the password alone, as redis-cli reads it
                password = user;
                user = null;
            }
        }
        return this;
    }

    private static String decode(String s) {
        return java.net.URLDecoder.decode(s.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Topic {@code t} travels on the Redis channel {@code prefix + t}; servers sharing topics share the prefix. */
    public RedisFanoutConfig channelPrefix(String value) {
        if (value == null) {
            throw new IllegalArgumentException("channelPrefix must not be null (\"\" for none)");
        }
        channelPrefix = value;
        return this;
    }

    /**
     * Publishes waiting for the Redis connection, in bytes: beyond it (Redis slow, stalled or
     * down) a publish still reaches this server's subscribers, but not Redis; it is counted in
     * {@link RedisFanout#dropped()}.
     */
    public RedisFanoutConfig maxQueuedBytes(long value) { maxQueuedBytes = between(value, 1, Long.MAX_VALUE, "maxQueuedBytes"); return this; }
    public RedisFanoutConfig connectTimeoutMillis(int value) { connectTimeoutMillis = between(value, 1, Integer.MAX_VALUE, "connectTimeoutMillis"); return this; }
    /** How long one batch of publishes may take before the connection is taken for dead. */
    public RedisFanoutConfig commandTimeoutMillis(int value) { commandTimeoutMillis = between(value, 1, Integer.MAX_VALUE, "commandTimeoutMillis"); return this; }
    /** The subscribing connection pings this often; silence for three of these drops and reconnects it. */
    public RedisFanoutConfig healthCheckMillis(int value) { healthCheckMillis = between(value, 10, Integer.MAX_VALUE / 3, "healthCheckMillis"); return this; }

    /** Reconnect delays: {@code min} doubling to {@code max}, each jittered into its upper half. */
    public RedisFanoutConfig reconnectMillis(long min, long max) {
        minReconnectMillis = between(min, 1, Long.MAX_VALUE, "min");
        maxReconnectMillis = between(max, min, Long.MAX_VALUE, "max");
        return this;
    }

    private static int between(int value, int min, int max, String name) {
        return (int) between((long) value, min, max, name);
    }

    private static long between(long value, long min, long max, String name) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }
}
