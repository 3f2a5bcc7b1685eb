package wsjava.bench.fanout;

import java.nio.ByteBuffer;
import wsjava.redis.RedisFanout;
import wsjava.redis.RedisFanoutConfig;
import wsjava.server.Compression;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;

/**
 * The server of the fan-out benchmark, in a JVM of its own: {@code FanoutServer [--redis PORT] PORT}.
 * A connection to {@code /?topic=T} is subscribed to T; a binary message from a client is a
 * publish: two bytes of topic number n, then the payload, published to "t" + n. With
 * {@code --redis}, a {@link RedisFanout} joins it to the other servers. Prints "listening on ..."
 * once it serves (and, with Redis, once both Redis connections are up).
 */
public final class FanoutServer {

    private FanoutServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[args.length - 1]);
        Integer redis = args.length >= 3 && args[0].equals("--redis") ? Integer.valueOf(args[1]) : null;
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(port).compression(Compression.OFF), new WebSocketListener() {
            @Override
            public void onOpen(WebSocketConnection c) {
                if (c.query().startsWith("topic=")) {
                    c.subscribe(c.query().substring(6));
                }
            }

            @Override
            public void onBinary(WebSocketConnection c, ByteBuffer message) {
                int topic = message.getShort(message.position()) & 0xFFFF;
                c.server().publish("t" + topic, message.duplicate().position(message.position() + 2));
            }
        }).start();
        if (redis != null) {
            RedisFanout fanout = RedisFanout.start(server, new RedisFanoutConfig().port(redis));
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!fanout.isConnected() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            if (!fanout.isConnected()) {
                throw new IllegalStateException("no connection to Redis on port " + redis);
            }
        }
        System.out.println("listening on " + server.url());
        System.out.flush();
        server.awaitStopped(Long.MAX_VALUE, java.util.concurrent.TimeUnit.DAYS);
    }
}
