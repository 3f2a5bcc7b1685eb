package wsjava.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.OpCode;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;
import wsjava.testing.RawClient;

/** A kernel that drains slowly: clients are slowed down, never closed, and no event is lost. */
@Timeout(120)
class EventQueueTest {

    @Test
    void aFullQueueStopsReadingInsteadOfClosingAndLosesNothing() throws Exception {
        EventQueue queue = new EventQueue(64 * 1024);
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), queue).start();
        try (RawClient flooder = RawClient.open(server.port()); RawClient innocent = RawClient.open(server.port())) {
            Thread flood = new Thread(() -> {
                try {
                    for (int i = 0; i < 200; i++) {
                        byte[] text = String.format("%05d", i).concat("x".repeat(10_000)).getBytes();
                        flooder.send(flooder.writer.frame(OpCode.TEXT, true, text, 0, text.length));
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            flood.start();
            long deadline = System.currentTimeMillis() + 20_000;
            while (queue.suspendedConnections() == 0 && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(1, queue.suspendedConnections(), "the flooding connection is no longer read");
            innocent.send(innocent.writer.frame(OpCode.TEXT, true, "me too".getBytes(), 0, 6));

            List<String> flooderTexts = new ArrayList<>();
            List<String> types = new ArrayList<>();
            boolean innocentSeen = false;
            deadline = System.currentTimeMillis() + 60_000;
            while ((flooderTexts.size() < 200 || !innocentSeen) && System.currentTimeMillis() < deadline) {
                String[] batch = queue.poll(100, 5);       // a slow kernel: a few events at a time
                for (int at = 0; at < batch.length; at += EventQueue.FIELDS) {
                    types.add(batch[at]);
                    if (batch[at].equals("Text") && batch[at + 4].equals("me too")) {
                        innocentSeen = true;
                    } else if (batch[at].equals("Text")) {
                        flooderTexts.add(batch[at + 4].substring(0, 5));
                    }
                }
            }
            assertTrue(innocentSeen, "the innocent connection's message arrived");
            assertTrue(!types.contains("Close"), "nobody was closed: " + types);
            assertEquals(200, flooderTexts.size(), "every flooded message arrived");
            for (int i = 0; i < 200; i++) {
                assertEquals(String.format("%05d", i), flooderTexts.get(i), "in order");
            }
            flood.join(10_000);
            assertEquals(0, queue.suspendedConnections(), "reading resumed once drained");
        } finally {
            server.stop();
        }
    }
}
