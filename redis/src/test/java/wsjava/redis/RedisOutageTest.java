package wsjava.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static wsjava.redis.RedisFanoutTest.next;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Redis going away in the middle of a run (stopped and started again on its port, or stalled with
 * SIGSTOP): local delivery goes on, no publisher waits, the outage is logged, and both fan-out
 * connections come back by themselves.
 */
@Timeout(120)
class RedisOutageTest {

    private LocalRedis redis;
    private final List<LogRecord> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Logger log = Logger.getLogger(RedisFanout.class.getName());
    private final Handler capture = new Handler() {
        @Override public void publish(LogRecord r) { logged.add(r); }
        @Override public void flush() { }
        @Override public void close() { }
    };

    @BeforeEach
    void start() throws Exception {
        redis = RedisFanoutTest.requireRedis();
        log.addHandler(capture);
    }

    @AfterEach
    void stop() throws Exception {
        log.removeHandler(capture);
        if (redis != null) {
            redis.close();
        }
    }

    /** Publishes "prefix i" for i in [from, to) on {@code node}, a little apart; returns the longest one call took, in ms. */
    private static long publish(FanoutNode node, String prefix, int from, int to) throws InterruptedException {
        long longest = 0;
        for (int i = from; i < to; i++) {
            long t0 = System.nanoTime();
            node.server.publish("feed", prefix + " " + i);
            longest = Math.max(longest, System.nanoTime() - t0);
            Thread.sleep(1);
        }
        return longest / 1_000_000;
    }

    private static List<Integer> numbers(BlockingQueue<String> heard, String prefix) {
        List<Integer> out = new ArrayList<>();
        for (String m : heard) {
            if (m.startsWith("T:" + prefix + " ")) {
                out.add(Integer.parseInt(m.substring(prefix.length() + 3)));
            }
        }
        return out;
    }

    @Test
    void aRedisRestartInTheMiddleStopsNeitherLocalDeliveryNorThePublisher() throws Exception {
        try (FanoutNode a = new FanoutNode(redis).awaitConnected(); FanoutNode b = new FanoutNode(redis).awaitConnected()) {
            BlockingQueue<String> local = a.subscriber("feed");
            BlockingQueue<String> remote = b.subscriber("feed");
            a.awaitSubscriptions(1);
            b.awaitSubscriptions(1);
            publish(a, "before", 0, 200);
            for (int i = 0; i < 200; i++) {
                assertEquals("T:before " + i, next(remote));
            }

            redis.stop();
            long longest = publish(a, "during", 0, 300);
            assertTrue(longest < 200, "a publish waited " + longest + " ms for a Redis that is down");
            for (int i = 0; i < 200; i++) {
                assertEquals("T:before " + i, next(local));
            }
            for (int i = 0; i < 300; i++) {
                assertEquals("T:during " + i, next(local), "local subscribers get everything during the outage");
            }
            assertTrue(logged.stream().anyMatch(r -> r.getLevel() == java.util.logging.Level.WARNING
                    && (r.getMessage().contains("unreachable") || r.getMessage().contains("lost"))), "the outage is logged: " + logged.stream().map(LogRecord::getMessage).toList());

            redis.restart();
            a.awaitConnected();
            b.awaitConnected();
            publish(a, "after", 0, 200);
            for (int i = 0; i < 200; i++) {
                assertEquals("T:after " + i, next(local));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (numbers(remote, "after").size() < 200 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            List<Integer> after = numbers(remote, "after");
            assertEquals(200, after.size(), "after the reconnect every publish reaches the other server");
            for (int i = 0; i < 200; i++) {
                assertEquals(i, after.get(i), "in order, once each");
            }
            List<Integer> during = numbers(remote, "during");
            for (int i = 1; i < during.size(); i++) {
                assertTrue(during.get(i) > during.get(i - 1), "what got through the outage is in order, never twice: " + during);
            }
        }
    }

    @Test
    void aStalledRedisNeverBlocksAnIoThreadThatPublishes() throws Exception {
        RedisFanoutConfig small = new RedisFanoutConfig().maxQueuedBytes(64 * 1024).commandTimeoutMillis(500)
                .reconnectMillis(20, 200).healthCheckMillis(200);
        try (FanoutNode a = new FanoutNode(redis, small).awaitConnected(); FanoutNode b = new FanoutNode(redis).awaitConnected()) {
            BlockingQueue<String> local = a.subscriber("feed");
            BlockingQueue<String> remote = b.subscriber("feed");
            FanoutNode.Client asker = a.client("control");
            a.awaitSubscriptions(2);
            b.awaitSubscriptions(1);

            redis.pause();
            asker.connection.sendText("burst 5000");          // 5,000 publishes of 1 KB from the I/O thread
            String done = next(asker.heard);
            assertTrue(done.startsWith("T:done "), done);
            long millis = Long.parseLong(done.substring(7));
            assertTrue(millis < 5_000, "5,000 publishes from an I/O thread took " + millis + " ms with Redis stalled");
            for (int i = 0; i < 5000; i++) {
                assertTrue(next(local).startsWith("T:" + i + " "), "local delivery of " + i);
            }
            assertTrue(a.fanout.dropped() > 0, "a full queue drops (and counts) what cannot reach Redis");
            assertTrue(a.fanout.queuedBytes() <= 64 * 1024);

            redis.resume();
            a.awaitConnected();
            b.awaitConnected();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            boolean through = false;
            while (!through && System.nanoTime() < deadline) {
                a.server.publish("feed", "marker");
                String m = remote.poll(200, TimeUnit.MILLISECONDS);
                while (m != null && !through) {
                    through = m.equals("T:marker");
                    m = remote.poll();
                }
            }
            assertTrue(through, "after the stall, publishes reach the other server again");
        }
    }
}
