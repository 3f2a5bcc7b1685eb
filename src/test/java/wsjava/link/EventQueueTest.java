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

    /**
     * Attack suite, event-queue-flood under -Xmx128m: a kernel polled up to 1,000 events at once and
     * held the batch while it handled it, uncounted, while the queue filled again behind it: the JVM
     * ran out of memory. A batch is now at most a quarter of the limit after its first event, and it
     * stays counted until the kernel asks for the next one.
     */
    @Test
    void aBatchIsBoundedInBytesAndCountedUntilTheNextPoll() throws Exception {
        EventQueue queue = new EventQueue(1 << 20);
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), queue).start();
        try (RawClient c = RawClient.open(server.port())) {
            byte[] text = "y".repeat(100_000).getBytes();
            for (int i = 0; i < 4; i++) {     // 800 KB counted (two bytes a character): within the limit, so all are queued
                c.send(c.writer.frame(OpCode.TEXT, true, text, 0, text.length));
            }
            long deadline = System.currentTimeMillis() + 20_000;
            while (queue.size() < 5 && System.currentTimeMillis() < deadline) {      // Open and 4 texts
                Thread.sleep(10);
            }
            assertEquals(5, queue.size(), "the open event and the four texts are queued");
            long before = queue.queuedBytes();
            String[] batch = queue.poll(100, 1000);
            int events = batch.length / EventQueue.FIELDS;
            assertTrue(events >= 1 && events <= 3, events + " events in one batch: at most a quarter of the 1 MiB limit after the first");
            assertEquals(before, queue.queuedBytes(), "the batch the kernel holds is still counted");
            queue.poll(100, 1000);
            assertTrue(queue.queuedBytes() < before, "counted no more once the kernel asks again");
        } finally {
            server.stop();
        }
    }

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
            // Reading can still be stopped after the kernel's last poll: the next message's start may find
            // no room while earlier texts are queued, and stop the server. The paclet's drain task polls
            // again soon, which lifts it; so does this kernel, and a stop it did not lift fails below.
            assertEquals(0, queue.poll(100, 5).length, "nothing more was queued");
            assertEquals(0, queue.suspendedConnections(), "reading resumed once drained");
        } finally {
            server.stop();
        }
    }
}
