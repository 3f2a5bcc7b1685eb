package wsjava.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.OpCode;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;
import wsjava.testing.RawClient;

/**
 * Issue 20, item 2: the queue used to stop only the connection whose event crossed its limit, so
 * every other open connection still got one message in (in WL, 16 MiB each from 16 KB compressed:
 * 200 connections queued 2 GiB and the kernel's JVM died). Over the limit, every connection of the
 * server must stop before it assembles a new message, and nothing may be lost.
 */
@Timeout(120)
class EventQueueSuspensionTest {

    @Test
    void overTheLimitNoConnectionOfTheServerGetsAnotherMessageIn() throws Exception {
        EventQueue queue = new EventQueue(256 * 1024);
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), queue).start();
        List<RawClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                clients.add(RawClient.open(server.port()));
            }
            send(clients.get(0), 0, 300_000);            // over the limit by itself
            long deadline = System.currentTimeMillis() + 20_000;
            while (queue.suspendedConnections() == 0 && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            for (int i = 1; i < clients.size(); i++) {
                send(clients.get(i), i, 100_000);
            }
            Thread.sleep(2_000);
            Set<String> first = texts(queue.poll(0, 100_000));
            assertTrue(first.size() <= 3, first.size() + " messages got in while the queue was over its limit: " + first);
            Set<String> all = new HashSet<>(first);
            deadline = System.currentTimeMillis() + 60_000;
            while (all.size() < clients.size() && System.currentTimeMillis() < deadline) {
                all.addAll(texts(queue.poll(100, 3)));        // a slow kernel; reading resumes as it drains
            }
            assertEquals(clients.size(), all.size(), "every message arrived once the kernel caught up: " + all);
        } finally {
            for (RawClient c : clients) {
                c.close();
            }
            server.stop();
        }
    }

    private static void send(RawClient c, int id, int size) throws Exception {
        byte[] text = String.format("%03d", id).concat("x".repeat(size - 3)).getBytes();
        c.send(c.writer.frame(OpCode.TEXT, true, text, 0, text.length));
    }

    /** The ids of the Text events in a batch. */
    private static Set<String> texts(String[] batch) {
        Set<String> ids = new HashSet<>();
        for (int at = 0; at < batch.length; at += EventQueue.FIELDS) {
            if (batch[at].equals("Text")) {
                ids.add(batch[at + 4].substring(0, 3));
            }
        }
        return ids;
    }
}
