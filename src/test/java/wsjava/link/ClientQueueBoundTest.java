package wsjava.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.client.ClientConfig;
import wsjava.client.WebSocketClient;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;

/**
 * A client's queue (WSJavaConnect) stopped only between reads of 64 KiB, so one read of many small
 * messages went far past its limit (3.94x in round 3). It stops before the next message now: at
 * most the limit plus the message that crossed it.
 */
@Timeout(60)
class ClientQueueBoundTest {

    @Test
    void aClientQueueStopsBeforeTheNextMessageOfARead() throws Exception {
        int count = 400;
        String text = "k".repeat(1_000);
        WebSocketListener sender = new WebSocketListener() {
            @Override
            public void onOpen(WebSocketConnection c) {
                for (int i = 0; i < count; i++) {
                    c.sendText(String.format("%04d", i) + text);
                }
            }
        };
        long limit = 16 * 1024;
        EventQueue queue = new EventQueue(limit);
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), sender).start()) {
            WebSocketConnection client = WebSocketClient.connect(URI.create("ws://127.0.0.1:" + server.port() + "/"), queue,
                    new ClientConfig().compression(false));
            Thread.sleep(1_500);
            long oneEvent = 2 * (text.length() + 4) + 256;
            System.out.println("client queue: queued at most " + queue.peakQueuedBytes() + " bytes; limit " + limit + ", one event " + oneEvent);
            assertTrue(queue.peakQueuedBytes() <= limit + oneEvent,
                    "queued at most " + queue.peakQueuedBytes() + " bytes; the limit is " + limit + ", one message's event " + oneEvent);
            List<String> got = new ArrayList<>();
            long deadline = System.currentTimeMillis() + 30_000;
            while (got.size() < count && System.currentTimeMillis() < deadline) {
                String[] batch = queue.poll(100, 3);
                for (int at = 0; at < batch.length; at += EventQueue.FIELDS) {
                    if (batch[at].equals("Text")) {
                        got.add(batch[at + 4].substring(0, 4));
                    }
                }
            }
            assertEquals(count, got.size(), "every message arrived once drained");
            for (int i = 0; i < count; i++) {
                assertEquals(String.format("%04d", i), got.get(i), "in order");
            }
            client.close(1000, "");
        }
    }
}
