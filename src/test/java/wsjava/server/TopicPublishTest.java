package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static wsjava.server.TopicsTest.awaitOpened;
import static wsjava.server.TopicsTest.text;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.testing.PeerDeflate;
import wsjava.testing.RawClient;

/** How a publish travels: from many threads at once, in which compressed form, and to slow subscribers. */
@Timeout(60)
class TopicPublishTest {

    @Test
    void publishesFromManyThreadsArriveWholeAndInEachThreadsOrder() throws Exception {
        RecordingListener listener = new RecordingListener();
        int threads = 4;
        int each = 500;
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
             RawClient a = RawClient.open(server.port()); RawClient b = RawClient.open(server.port())) {
            assertTrue(awaitOpened(listener, 1).subscribe("feed"));
            assertTrue(awaitOpened(listener, 2).subscribe("feed"));
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<Integer>> taken = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                taken.add(pool.submit(() -> {
                    int n = 0;
                    for (int i = 0; i < each; i++) {
                        n += server.publish("feed", thread + ":" + i + ":" + "x".repeat(i % 300));
                    }
                    return n;
                }));
            }
            for (Future<Integer> f : taken) {
                assertEquals(2 * each, f.get(30, TimeUnit.SECONDS));
            }
            pool.shutdown();
            for (RawClient c : List.of(a, b)) {
                int[] next = new int[threads];
                for (int k = 0; k < threads * each; k++) {
                    String[] parts = text(c.readFrame(10_000)).split(":");
                    int thread = Integer.parseInt(parts[0]);
                    assertEquals(next[thread]++, Integer.parseInt(parts[1]), "thread " + thread + "'s messages in order");
                    assertEquals(Integer.parseInt(parts[1]) % 300, parts.length > 2 ? parts[2].length() : 0, "a message arrived whole");
                }
                assertEquals(List.of(each, each, each, each), Arrays.stream(next).boxed().collect(java.util.stream.Collectors.toList()));
            }
        }
    }

    /**
     * Encoded once per form: connections without context takeover share one compressed copy, and a
     * connection with its own context gets the plain form (RSV1 clear), never a deflate run for it
     * alone on the publisher's thread.
     */
    @Test
    void subscribersWithOwnContextGetThePlainFormAndOthersShareOneCompressedCopy() throws Exception {
        RecordingListener listener = new RecordingListener();
        String big = "ListLinePlot[{1, 2, 3, 5, 8, 13}]; ".repeat(200);
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
             RawClient plain = RawClient.open(server.port());
             RawClient shared1 = RawClient.openOffering(server.port(), "permessage-deflate; server_no_context_takeover");
             RawClient shared2 = RawClient.openOffering(server.port(), "permessage-deflate; server_no_context_takeover");
             RawClient own = RawClient.openOffering(server.port(), "permessage-deflate")) {
            for (int i = 1; i <= 4; i++) {
                assertTrue(awaitOpened(listener, i).subscribe("plot"));
            }
            assertEquals(4, server.publish("plot", big));
            assertEquals(big, text(plain.readFrame(5000)));
            Frame s1 = shared1.readFrame(5000);
            Frame s2 = shared2.readFrame(5000);
            assertEquals(4, s1.header().rsv() & 4, "compressed for a connection without context takeover");
            assertTrue(Arrays.equals(s1.payload(), s2.payload()) && s1.payload().length < big.length() / 4);
            assertEquals(big, new String(new PeerDeflate(false, true).inflate(s1.payload()), StandardCharsets.UTF_8));
            Frame o = own.readFrame(5000);
            assertEquals(0, o.header().rsv(), "a connection with its own context gets the plain form");
            assertEquals(big, text(o));
        }
    }

    /** The outbound limit applies as for any send: the subscriber that does not read is dropped (1008), the others go on. */
    @Test
    void aSubscriberThatDoesNotReadIsDroppedAndTheOthersGetEverything() throws Exception {
        RecordingListener listener = new RecordingListener();
        ServerConfig config = new ServerConfig().port(0).outboundLimitBytes(256 * 1024).compression(Compression.OFF);
        try (WebSocketServer server = new WebSocketServer(config, listener).start();
             RawClient reader = RawClient.open(server.port()); RawClient stuck = RawClient.open(server.port())) {
            WebSocketConnection r = awaitOpened(listener, 1);
            WebSocketConnection s = awaitOpened(listener, 2);
            assertTrue(r.subscribe("fast") && s.subscribe("fast"));
            Thread readAll = new Thread(() -> {
                try {
                    for (int i = 0; i < 4000; i++) {
                        assertEquals(i, Integer.parseInt(text(reader.readFrame(10_000)).split(" ")[0]));
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            readAll.setUncaughtExceptionHandler((t, e) -> failures.add(e));
            readAll.start();
            String padding = "p".repeat(4000);
            for (int i = 0; i < 4000; i++) {
                while (r.queuedBytes() > 64 * 1024) {
                    Thread.sleep(1);    // paced by the reader: only the stuck one piles up
                }
                server.publish("fast", i + " " + padding);
            }
            assertEquals(1008, listener.closeOf(s.id()).get(10, TimeUnit.SECONDS));
            readAll.join(30_000);
            assertTrue(failures.isEmpty(), String.valueOf(failures));
            assertEquals(java.util.Set.of(), s.topics(), "the dropped subscriber left its topic");
            assertEquals(1, server.publish("fast", "4000 after the drop"));
        }
    }
}
