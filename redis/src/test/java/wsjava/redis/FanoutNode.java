package wsjava.redis;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import wsjava.client.ClientConfig;
import wsjava.client.WebSocketClient;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;

/**
 * One WSJava server joined to a Redis by a {@link RedisFanout}, with clients of its own: each
 * client subscribes to the topic its URL names ({@code /?topic=...}) and records what it hears as
 * "T:text" or "B:" and the bytes in hex, so that a test sees types as well as contents.
 */
final class FanoutNode implements AutoCloseable {

    final WebSocketServer server;
    final RedisFanout fanout;
    private final List<WebSocketConnection> clients = new ArrayList<>();

    FanoutNode(LocalRedis redis, RedisFanoutConfig config) throws IOException {
        this(config.port(redis.port()));
    }

    /** A node whose config says where the Redis is (a TLS port, a user). */
    FanoutNode(RedisFanoutConfig config) throws IOException {
        server = new WebSocketServer(new ServerConfig().port(0), new WebSocketListener() {
            @Override
            public void onOpen(WebSocketConnection c) {
                if (c.query().startsWith("topic=")) {
                    c.subscribe(c.query().substring(6));
                }
            }

            /** "burst N": N publishes to "feed" from this I/O thread, then "done" and how long they took. */
            @Override
            public void onText(WebSocketConnection c, String text) {
                if (text.startsWith("burst ")) {
                    String padding = "p".repeat(1000);
                    long t0 = System.nanoTime();
                    for (int i = 0, n = Integer.parseInt(text.substring(6)); i < n; i++) {
                        c.server().publish("feed", i + " " + padding);
                    }
                    c.sendText("done " + (System.nanoTime() - t0) / 1_000_000);
                }
            }
        }).start();
        fanout = RedisFanout.start(server, config);
    }

    FanoutNode(LocalRedis redis) throws IOException {
        this(redis, new RedisFanoutConfig().reconnectMillis(20, 200).healthCheckMillis(200));
    }

    /** A client of this server subscribed to {@code topic}; returns what it hears. */
    BlockingQueue<String> subscriber(String topic) throws IOException {
        return client(topic).heard;
    }

    /** A client and what it hears. */
    static final class Client {
        final WebSocketConnection connection;
        final BlockingQueue<String> heard;

        Client(WebSocketConnection connection, BlockingQueue<String> heard) {
            this.connection = connection;
            this.heard = heard;
        }
    }

    Client client(String topic) throws IOException {
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        WebSocketConnection c = WebSocketClient.connect(URI.create("ws://127.0.0.1:" + server.port() + "/?topic=" + topic), new WebSocketListener() {
            @Override public void onText(WebSocketConnection c, String text) { heard.add("T:" + text); }
            @Override public void onBinary(WebSocketConnection c, byte[] data) { heard.add("B:" + hex(data)); }
        }, new ClientConfig());
        clients.add(c);
        return new Client(c, heard);
    }

    static String hex(byte[] data) {
        StringBuilder b = new StringBuilder();
        for (byte x : data) {
            b.append(String.format("%02x", x));
        }
        return b.toString();
    }

    /** Waits until both connections to Redis are up (at most 20 s). */
    FanoutNode awaitConnected() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!fanout.isConnected()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the fan-out did not connect to Redis within 20 s");
            }
            Thread.sleep(10);
        }
        return this;
    }

    /** Waits until this server's subscribers count reaches {@code n}. */
    void awaitSubscriptions(long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server.subscriptionCount() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    @Override
    public void close() {
        fanout.close();
        server.stop(500);
    }
}
