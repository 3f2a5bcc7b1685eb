package wsjava.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;

/** Three WSJava servers sharing one real redis-server: who gets what, in which type, and how often. */
@Timeout(120)
class RedisFanoutTest {

    private LocalRedis redis;

    static LocalRedis requireRedis() throws Exception {
        return requireRedis(List.of());
    }

    /** A redis-server with more arguments, or the test skipped (failed under WSJAVA_REQUIRE_ALL_TOOLS=1) when there is none. */
    static LocalRedis requireRedis(List<String> arguments) throws Exception {
        if (!LocalRedis.available()) {
            if ("1".equals(System.getenv("WSJAVA_REQUIRE_ALL_TOOLS"))) {
                fail("redis-server is missing, and WSJAVA_REQUIRE_ALL_TOOLS=1 forbids skipping");
            }
            Assumptions.abort("skipped: redis-server is not installed (./wsjava test installs it where it can)");
        }
        return LocalRedis.start(arguments);
    }

    static String next(BlockingQueue<String> heard) throws InterruptedException {
        String m = heard.poll(10, TimeUnit.SECONDS);
        if (m == null) {
            throw new AssertionError("nothing arrived within 10 s");
        }
        return m;
    }

    @BeforeEach
    void startRedis() throws Exception {
        redis = requireRedis();
    }

    @AfterEach
    void stopRedis() throws Exception {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void aPublishOnAnyServerReachesEverySubscriberOnceWithItsType() throws Exception {
        try (FanoutNode a = new FanoutNode(redis).awaitConnected(); FanoutNode b = new FanoutNode(redis).awaitConnected();
             FanoutNode c = new FanoutNode(redis).awaitConnected()) {
            List<FanoutNode> nodes = List.of(a, b, c);
            List<BlockingQueue<String>> prices = List.of(a.subscriber("prices"), a.subscriber("prices"), b.subscriber("prices"), c.subscriber("prices"));
            BlockingQueue<String> news = c.subscriber("news");
            a.awaitSubscriptions(2);
            b.awaitSubscriptions(1);
            c.awaitSubscriptions(2);
            for (int i = 0; i < nodes.size(); i++) {
                FanoutNode from = nodes.get(i);
                assertEquals(from == a ? 2 : 1, from.server.publish("prices", "tick " + i), "its own subscribers at once");
                from.server.publish("prices", new byte[] {(byte) i, (byte) 0xFF});
            }
            List<String> expected = List.of("B:00ff", "B:01ff", "B:02ff", "T:tick 0", "T:tick 1", "T:tick 2");
            for (BlockingQueue<String> heard : prices) {
                List<String> got = new java.util.ArrayList<>();
                for (int i = 0; i < expected.size(); i++) {
                    got.add(next(heard));
                }
                for (int i = 0; i < nodes.size(); i++) {
                    assertTrue(got.indexOf("T:tick " + i) < got.indexOf("B:0" + i + "ff"), "one server's publishes keep their order: " + got);
                }
                java.util.Collections.sort(got);
                assertEquals(expected, got, "every publish once, with its type");
            }
            assertEquals(0, a.server.publish("news", "only news"), "a has no subscriber of news");
            assertEquals("T:only news", next(news), "a topic's message goes to its own subscribers");
            assertNull(prices.get(3).poll(300, TimeUnit.MILLISECONDS), "and to no one else");
        }
    }

    /**
     * A server's publish comes back to it from Redis; its subscribers must not get it twice. The
     * marker published on the other server after Redis took the first message arrives behind it
     * on the same subscription, so when the marker is here the copy has been seen and skipped.
     */
    @Test
    void aServerDoesNotDeliverItsOwnPublishTwice() throws Exception {
        try (FanoutNode a = new FanoutNode(redis).awaitConnected(); FanoutNode b = new FanoutNode(redis).awaitConnected()) {
            BlockingQueue<String> local = a.subscriber("t");
            a.awaitSubscriptions(1);
            a.server.publish("t", "once");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (a.fanout.sent() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            b.server.publish("t", "marker");
            assertEquals("T:once", next(local));
            assertEquals("T:marker", next(local), "the copy from Redis was not delivered again");
            assertTrue(a.fanout.received() >= 2, "the server did receive its own copy: " + a.fanout.received());
        }
    }

    @Test
    void anyRedisClientCanPublishTextOrBinaryToTheSubscribers() throws Exception {
        try (FanoutNode a = new FanoutNode(redis).awaitConnected(); Jedis outside = new Jedis("127.0.0.1", redis.port())) {
            BlockingQueue<String> heard = a.subscriber("alerts");
            a.awaitSubscriptions(1);
            outside.publish("wsjava:alerts", "from redis-cli");
            outside.publish("wsjava:alerts".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xC3, 0x28});
            outside.publish("other:alerts", "another prefix");
            assertEquals("T:from redis-cli", next(heard));
            assertEquals("B:c328", next(heard), "bytes that are not UTF-8 arrive as binary");
            assertNull(heard.poll(300, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void closingTheFanOutKeepsPublishesLocal() throws Exception {
        try (FanoutNode a = new FanoutNode(redis).awaitConnected(); FanoutNode b = new FanoutNode(redis).awaitConnected()) {
            BlockingQueue<String> remote = b.subscriber("t");
            b.awaitSubscriptions(1);
            a.fanout.close();
            a.server.publish("t", "stays on a");
            b.server.publish("t", "b's own");
            assertEquals("T:b's own", next(remote));
            assertNull(remote.poll(300, TimeUnit.MILLISECONDS));
        }
    }
}
