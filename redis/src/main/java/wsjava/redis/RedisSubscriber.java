package wsjava.redis;

import java.lang.System.Logger.Level;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.Jedis;

/**
 * The receiving half of a fan-out: one thread subscribed to every fan-out channel (one pattern,
 * {@code prefix*}) that hands each message on as it arrives. The connection is pinged every
 * health-check interval; a read silent for three of them (a stalled Redis), a reset or a refused
 * connect is logged and the subscription made again with backoff. Redis pub/sub keeps nothing:
 * what others publish while this server is cut off does not reach it.
 */
final class RedisSubscriber {

    private final RedisLinks links;
    private final byte[] pattern;
    private final BiConsumer<byte[], byte[]> deliver;
    private final int healthCheckMillis;
    private final RetryDelay retry;
    private final Thread thread;
    private final ScheduledFuture<?> pings;
    final LongAdder received = new LongAdder();
    private volatile boolean closed;
    private volatile boolean connected;
    private volatile Subscription subscription;
    private volatile Jedis jedis;
    private boolean warned;

    /** A subscription on one connection: messages to {@code deliver}, and the moment it is confirmed. */
    private final class Subscription extends BinaryJedisPubSub {
        @Override
        public void onPSubscribe(byte[] p, int count) {
            connected = true;
            retry.reset();
            RedisLinks.log(Level.INFO, "subscribed to " + new String(pattern, java.nio.charset.StandardCharsets.UTF_8) + " on Redis at " + links.where(), null);
            warned = false;
        }

        @Override
        public void onPMessage(byte[] p, byte[] channel, byte[] message) {
            received.increment();
            try {
                deliver.accept(channel, message);
            } catch (Throwable e) {     // one bad message must not end the subscription
                RedisLinks.log(Level.WARNING, "a message from Redis on " + new String(channel, java.nio.charset.StandardCharsets.UTF_8)
                        + " could not be delivered", e);
            }
        }
    }

    RedisSubscriber(RedisLinks links, RedisFanoutConfig config, byte[] pattern, BiConsumer<byte[], byte[]> deliver, ScheduledExecutorService timer) {
        this.links = links;
        this.pattern = pattern;
        this.deliver = deliver;
        this.healthCheckMillis = config.healthCheckMillis();
        this.retry = new RetryDelay(config.minReconnectMillis(), config.maxReconnectMillis());
        this.thread = new Thread(this::run, "wsjava-redis-subscriber");
        thread.setDaemon(true);
        this.pings = timer.scheduleWithFixedDelay(this::ping, healthCheckMillis, healthCheckMillis, TimeUnit.MILLISECONDS);
    }

    void start() {
        thread.start();
    }

    boolean connected() {
        return connected;
    }

    private void run() {
        while (!closed) {
            Jedis j = null;
            try {
                j = links.open("wsjava-fanout-subscriber", 3 * healthCheckMillis);
                jedis = j;
                subscription = new Subscription();
                j.psubscribe(subscription, pattern);     // returns once unsubscribed (closing), or throws
            } catch (Throwable e) {
                if (!closed) {
                    RedisLinks.log(warned ? Level.DEBUG : Level.WARNING, "subscription to Redis at " + links.where() + " lost (" + e
                            + "); messages from other servers do not arrive until it is back; reconnecting", null);
                    warned = true;
                }
            } finally {
                connected = false;
                subscription = null;
                jedis = null;
                RedisLinks.close(j);
            }
            if (!closed && !retry.sleep()) {
                break;
            }
        }
    }

    /** Health check: a PING on the subscribed connection; its answer, or the read timeout, follows on the thread. */
    private void ping() {
        Subscription s = subscription;
        try {
            if (s != null && s.isSubscribed()) {
                s.ping();
            }
        } catch (Throwable e) {
            // the subscribing thread meets the broken connection on its next read
        }
    }

    void close() throws InterruptedException {
        closed = true;
        pings.cancel(false);
        Subscription s = subscription;
        try {
            if (s != null && s.isSubscribed()) {
                s.punsubscribe();
            }
        } catch (Throwable e) {
            // closing the socket below ends it anyway
        }
        RedisLinks.close(jedis);
        thread.interrupt();
        thread.join(10_000);
    }
}
