package wsjava.redis;

import java.lang.System.Logger.Level;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisProtocol;

/** Opens connections to the configured Redis and logs what happens to them, for both fan-out threads. */
final class RedisLinks {

    static final System.Logger LOG = System.getLogger(RedisFanout.class.getName());

    private final RedisFanoutConfig config;

    RedisLinks(RedisFanoutConfig config) {
        this.config = config;
    }

    /** A connected Jedis whose reads time out after {@code readTimeoutMillis} (0: never). */
    Jedis open(String name, int readTimeoutMillis) {
        DefaultJedisClientConfig.Builder c = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(config.connectTimeoutMillis())
                .socketTimeoutMillis(readTimeoutMillis)
                .protocol(RedisProtocol.RESP2)      // pub/sub and PUBLISH need nothing newer; no negotiation to warn about
                .clientName(name);
        if (config.password() != null) {
            c.password(config.password());
        }
        if (config.user() != null) {
            c.user(config.user());
        }
        if (config.tls()) {
            javax.net.ssl.SSLParameters checkHost = new javax.net.ssl.SSLParameters();
            checkHost.setEndpointIdentificationAlgorithm("HTTPS");     // the certificate must name the host
            c.ssl(true).sslParameters(checkHost);
            if (config.tlsContext() != null) {
                c.sslSocketFactory(config.tlsContext().getSocketFactory());
            }
        }
        Jedis jedis = new Jedis(new HostAndPort(config.host(), config.port()), c.build());
        jedis.connect();
        return jedis;
    }

    String where() {
        return (config.tls() ? "rediss://" : "") + config.host() + ":" + config.port();
    }

    static void log(Level level, String message, Throwable e) {
        try {
            LOG.log(level, message, e);
        } catch (RuntimeException ignored) {    // a logging failure must not end a fan-out thread
            // dropped
        }
    }

    static void close(Jedis jedis) {
        if (jedis != null) {
            try {
                jedis.close();
            } catch (RuntimeException ignored) {
                // the connection is already broken
            }
        }
    }
}
