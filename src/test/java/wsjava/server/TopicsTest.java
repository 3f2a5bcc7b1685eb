package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.LogCapture;
import wsjava.testing.RawClient;

/** Topics seen from the server's API: who gets a publish, membership, limits, closes and the relay. */
@Timeout(60)
class TopicsTest {

    static WebSocketConnection awaitOpened(RecordingListener listener, int count) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (listener.opened.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        return listener.opened.get(count - 1);
    }

    static String text(Frame f) {
        assertEquals(OpCode.TEXT, f.opcode());
        return new String(f.payload(), StandardCharsets.UTF_8);
    }

    static void assertNothingArrives(RawClient c) throws Exception {
        assertThrows(SocketTimeoutException.class, () -> c.readFrame(200), "a connection outside the topic got a message");
    }

    @Test
    void aPublishReachesTheTopicsSubscribersOnlyAndKeepsItsType() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
             RawClient a = RawClient.open(server.port()); RawClient b = RawClient.open(server.port());
             RawClient outside = RawClient.open(server.port())) {
            WebSocketConnection ca = awaitOpened(listener, 1);
            WebSocketConnection cb = awaitOpened(listener, 2);
            awaitOpened(listener, 3);
            assertTrue(ca.subscribe("prices"));
            assertTrue(cb.subscribe("prices"));
            assertTrue(cb.subscribe("news"));

            assertEquals(2, server.publish("prices", "101.5"));
            assertEquals("101.5", text(a.readFrame(5000)));
            assertEquals("101.5", text(b.readFrame(5000)));
            byte[] data = {1, 2, 3, (byte) 0xFF};
            assertEquals(1, server.publish("news", data));
            Frame binary = b.readFrame(5000);
            assertEquals(OpCode.BINARY, binary.opcode());
            assertArrayEquals(data, binary.payload());
            ByteBuffer buffer = ByteBuffer.wrap(new byte[] {9, 8, 7, 6}, 1, 2);
            assertEquals(1, server.publish("news", buffer));
            assertArrayEquals(new byte[] {8, 7}, b.readFrame(5000).payload());
            assertEquals(1, buffer.position(), "the buffer's position is not moved");
            assertEquals(0, server.publish("nobody-listens", "lost in space"));
            assertNothingArrives(a);
            assertNothingArrives(outside);
        }
    }

    /**
     * Adversarial review after issue 20: each connection under its own limit of topics, 582
     * connections held a 128 MiB heap with 256-character names. The server-wide budget refuses
     * new subscriptions once it is held, and frees room as subscriptions go.
     */
    @Test
    void theServersTopicsTogetherStayWithinTheirBudget() throws Exception {
        RecordingListener listener = new RecordingListener();
        long budget = 64 * 1024;
        int connections = 6;      // each holds at most its share of the budget: several are needed to fill it
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).topicBudgetBytes(budget), listener).start()) {
            List<RawClient> clients = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                clients.add(RawClient.open(server.port()));
            }
            awaitOpened(listener, connections);
            List<WebSocketConnection> opened = new ArrayList<>(listener.opened);
            String longName = "\u0416".repeat(250);
            int subscribed = 0;
            for (int c = 0; c < connections; c++) {
                for (int i = 0; i < 256 && opened.get(c).subscribe(longName + c + "-" + i); i++) {
                    subscribed++;
                }
            }
            assertTrue(subscribed > 0 && subscribed < 256 * connections, subscribed + " subscriptions: the budget stops some, not all");
            long oneTopic = TopicIndex.TOPIC_BYTES + TopicIndex.nameBytes(longName + "5-255") + TopicIndex.SUBSCRIPTION_BYTES;
            assertTrue(server.topicMemoryBytes() <= budget + oneTopic, server.topicMemoryBytes() + " bytes held, over the budget by more than one topic");
            WebSocketConnection last = opened.get(connections - 1);
            assertFalse(last.subscribe("one-more"), "refused while the budget is held");
            assertTrue(opened.get(0).unsubscribe(longName + "0-0"));
            assertTrue(opened.get(0).unsubscribe(longName + "0-1"));
            assertTrue(last.subscribe("one-more"), "room again once subscriptions go");
            for (RawClient c : clients) {
                c.close();
            }
        }
    }

    @Test
    void membershipIsWhatWasSubscribedAndNamesAreChecked() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
             RawClient a = RawClient.open(server.port())) {
            WebSocketConnection c = awaitOpened(listener, 1);
            assertTrue(c.subscribe("x"));
            assertTrue(c.subscribe("x"), "subscribing again is no error");
            assertTrue(c.subscribe("y"));
            assertEquals(Set.of("x", "y"), c.topics());
            assertEquals(2, server.topicCount());
            assertEquals(2, server.subscriptionCount());
            assertTrue(c.unsubscribe("x"));
            assertFalse(c.unsubscribe("x"));
            assertEquals(Set.of("y"), c.topics());
            assertEquals(1, server.topicCount(), "a topic without subscribers is gone");
            assertEquals(0, server.publish("x", "after leaving"));
            assertThrows(IllegalArgumentException.class, () -> c.subscribe(""));
            assertThrows(IllegalArgumentException.class, () -> c.subscribe(null));
            assertThrows(IllegalArgumentException.class, () -> c.subscribe("t".repeat(257)));
            assertTrue(c.subscribe("t".repeat(256)));
            assertThrows(IllegalArgumentException.class, () -> server.publish("", "no such topic"));
        }
    }

    @Test
    void aClosedConnectionLeavesEveryTopicAndJoinsNoMore() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start()) {
            RawClient a = RawClient.open(server.port());
            RawClient b = RawClient.open(server.port());
            WebSocketConnection ca = awaitOpened(listener, 1);
            WebSocketConnection cb = awaitOpened(listener, 2);
            for (String t : List.of("a", "b", "shared")) {
                assertTrue(ca.subscribe(t));
            }
            assertTrue(cb.subscribe("shared"));
            long withBoth = server.topicMemoryBytes();
            a.abort(true);
            assertEquals(1006, listener.closeOf(ca.id()).get(10, TimeUnit.SECONDS));
            assertEquals(1, server.topicCount(), "only the other connection's topic is left");
            assertEquals(1, server.subscriptionCount());
            assertTrue(server.topicMemoryBytes() < withBoth);
            assertFalse(ca.subscribe("again"), "a closed connection cannot subscribe");
            assertEquals(Set.of(), ca.topics());
            assertEquals(1, server.publish("shared", "still here"));
            assertEquals("still here", text(b.readFrame(5000)));
            b.close();
            listener.closeOf(cb.id()).get(10, TimeUnit.SECONDS);
            assertEquals(0, server.topicCount());
            assertEquals(0, server.subscriptionCount());
            assertEquals(0, server.topicMemoryBytes(), "every byte counted for topics is given back");
        }
    }

    @Test
    void aConnectionHoldsAtMostItsTopicLimit() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).maxTopicsPerConnection(3), listener).start();
             RawClient a = RawClient.open(server.port())) {
            WebSocketConnection c = awaitOpened(listener, 1);
            assertTrue(c.subscribe("1") && c.subscribe("2") && c.subscribe("3"));
            assertFalse(c.subscribe("4"), "over the limit");
            assertTrue(c.subscribe("3"), "one it holds is still fine");
            assertEquals(3, c.topics().size());
            assertTrue(c.unsubscribe("1"));
            assertTrue(c.subscribe("4"));
            assertEquals(256, new ServerConfig().maxTopicsPerConnection(), "the default");
        }
    }

    @Test
    void theRelayHearsPublishesButNotLocalDeliveriesAndCannotBreakThem() throws Exception {
        RecordingListener listener = new RecordingListener();
        List<String> relayed = new CopyOnWriteArrayList<>();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
             RawClient a = RawClient.open(server.port()); LogCapture log = new LogCapture(WebSocketServer.class)) {
            assertTrue(awaitOpened(listener, 1).subscribe("t"));
            server.relayTopics((topic, isText, payload) -> relayed.add(topic + "|" + isText + "|" + new String(payload, StandardCharsets.UTF_8)));
            assertEquals(1, server.publish("t", "mine"));
            assertEquals(1, server.publish("elsewhere", "z".getBytes(StandardCharsets.UTF_8)) + 1);
            assertEquals(1, server.publishLocally("t", "from another server"));
            assertEquals(List.of("t|true|mine", "elsewhere|false|z"), relayed);
            assertEquals("mine", text(a.readFrame(5000)));
            assertEquals("from another server", text(a.readFrame(5000)));
            server.relayTopics((topic, isText, payload) -> {
                throw new IllegalStateException("relay down");
            });
            assertEquals(1, server.publish("t", "despite the relay"), "local subscribers still get it");
            assertEquals("despite the relay", text(a.readFrame(5000)));
            assertTrue(log.records.stream().anyMatch(r -> r.getMessage().contains("relay")), "the relay's failure is logged");
        }
    }
}
