package wsjava.redis;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import wsjava.server.TopicRelay;
import wsjava.server.WebSocketServer;

/**
 * Fan-out of a server's topics through Redis pub/sub: every {@link WebSocketServer#publish} on
 * this server also goes to Redis, and what any server sharing the Redis publishes reaches this
 * server's subscribers. Messages keep their type; a server's own publish reaches its subscribers
 * once (at once, locally; its copy back from Redis is skipped).
 * <pre>
 *   RedisFanout fanout = RedisFanout.start(server, new RedisFanoutConfig().host("10.0.0.5"));
 *   server.publish("prices", "101.5");     // every server's subscribers of "prices"
 *   fanout.close();                        // this server's publishes stay local again
 * </pre>
 *
 * <p>A Redis outage never stops local delivery and never blocks a publisher or an I/O thread:
 * publishes wait for Redis in a bounded queue ({@link RedisFanoutConfig#maxQueuedBytes}) and,
 * when it is full, go to this server's subscribers only and are counted in {@link #dropped()}.
 * Both connections (one publishing, one subscribed) are logged through {@code System.Logger}
 * ({@code wsjava.redis.RedisFanout}) when they fail and reconnect by themselves with backoff.
 * Redis pub/sub stores nothing, so what other servers publish while this one is cut off is lost
 * to its clients. Messages from one server arrive everywhere in the order it published them;
 * messages from different servers have no order between them.
 */
public final class RedisFanout implements TopicRelay, AutoCloseable {

    private final WebSocketServer server;
    private final String prefix;
    private final SecureRandom random = new SecureRandom();
    private final OwnPublishes own = new OwnPublishes();
    /** The server's message limit: larger messages from Redis are dropped, not delivered. */
    private final int maxMessageBytes;
    private final java.util.concurrent.atomic.LongAdder oversized = new java.util.concurrent.atomic.LongAdder();
    private final ThrottledWarning oversizeLog = new ThrottledWarning();
    private final RedisPublisher publisher;
    private final RedisSubscriber subscriber;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "wsjava-redis-health");
        t.setDaemon(true);
        return t;
    });

    private RedisFanout(WebSocketServer server, RedisFanoutConfig config) {
        this.server = server;
        this.prefix = config.channelPrefix();
        this.maxMessageBytes = server.config().maxMessageSize();
        RedisLinks links = new RedisLinks(config);
        this.publisher = new RedisPublisher(links, config, own);
        this.subscriber = new RedisSubscriber(links, config, pattern(prefix), this::arrived, timer);
    }

    /**
     * Connects {@code server} to the Redis in {@code config} and returns at once: the connections
     * are made (and remade) in the background, and publishes made before they are up wait in the
     * queue. From now on the server's publishes go through this fan-out.
     */
    public static RedisFanout start(WebSocketServer server, RedisFanoutConfig config) {
        RedisFanout fanout = new RedisFanout(server, config);
        fanout.publisher.start();
        fanout.subscriber.start();
        server.relayTopics(fanout);
        return fanout;
    }

    /** Called by the server after each publish (any thread): queues it for Redis, never waiting. */
    @Override
    public void published(String topic, boolean text, byte[] payload) {
        byte[] id = new byte[FanoutMessage.ID_BYTES];
        random.nextBytes(id);
        publisher.offer((prefix + topic).getBytes(StandardCharsets.UTF_8), FanoutMessage.encode(id, text, payload));
    }

    /** A message from Redis: to this server's subscribers, unless this server published it. */
    private void arrived(byte[] channel, byte[] message) {
        boolean headed = FanoutMessage.hasHeader(message);
        long size = headed ? message.length - FanoutMessage.HEADER_BYTES : message.length;
        if (headed && own.cameBack(java.util.Arrays.copyOfRange(message, FanoutMessage.ID_AT, FanoutMessage.ID_AT + FanoutMessage.ID_BYTES))) {
            return;      // its subscribers had it when it was published
        }
        if (size > maxMessageBytes) {
            // A Redis peer is not a client, but it is no more trusted: past the server's limit, a message would cost every server its size per form.
            oversized.increment();
            oversizeLog.say(() -> "dropped a message of " + size + " bytes from Redis: over the server's message limit of "
                    + maxMessageBytes + " (" + oversized.sum() + " dropped so far)");
            return;
        }
        FanoutMessage m = FanoutMessage.decode(message);
        String topic = new String(channel, StandardCharsets.UTF_8).substring(prefix.length());
        try {
            if (m.text) {
                server.publishLocally(topic, m.textPayload());
            } else {
                server.publishLocally(topic, m.payload);
            }
        } catch (IllegalArgumentException e) {
            RedisLinks.log(Level.DEBUG, "ignored a Redis message on a channel that names no topic: " + topic.length() + " characters", null);
        }
    }

    /** Publishes handed to Redis so far. */
    public long sent() {
        return publisher.sent.sum();
    }

    /** Publishes that reached only this server's subscribers: the queue was full, or their connection to Redis failed. */
    public long dropped() {
        return publisher.dropped.sum();
    }

    /** Messages from Redis dropped for being larger than the server's message limit. */
    public long oversized() {
        return oversized.sum();
    }

    /** Messages received from Redis so far (this server's own included, which are not delivered again). */
    public long received() {
        return subscriber.received.sum();
    }

    /** Bytes of publishes waiting for Redis now. */
    public long queuedBytes() {
        return publisher.queuedBytes();
    }

    /** Whether both connections to Redis are up (publishing, and subscribed). */
    public boolean isConnected() {
        return publisher.connected() && subscriber.connected();
    }

    /** Stops relaying (the server's publishes stay local) and closes both connections. */
    @Override
    public void close() {
        server.relayTopics(null);
        try {
            publisher.close();
            subscriber.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timer.shutdownNow();
    }

    /** The one pattern every fan-out channel matches: the prefix, its glob characters escaped, then {@code *}. */
    static byte[] pattern(String prefix) {
        return (prefix.replaceAll("([\\\\*?\\[\\]])", "\\\\$1") + "*").getBytes(StandardCharsets.UTF_8);
    }
}
