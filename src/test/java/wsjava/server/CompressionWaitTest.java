package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * The I/O thread never waits for a compression running on a worker: not on its timer pass (which
 * frees idle compressors), and not when the connection being compressed for closes. Either wait
 * stalled every other connection of that thread for the rest of the compression.
 */
@Tag("serial")      // a bystander's round trips against a bound: run alone, not beside another test JVM
@Timeout(60)
class CompressionWaitTest {

    /** Well under the time the compression takes (about 300 ms here), well over a round trip on a quiet machine. */
    private static final long BOUND_MILLIS = 100;

    @Test
    void aBystanderIsServedWhileAClosingConnectionsMessageIsCompressed() throws Exception {
        AtomicInteger received = new AtomicInteger();
        WebSocketListener echo = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                connection.sendText(text);          // on the I/O thread: a large one is compressed on a worker
                received.incrementAndGet();
            }
        };
        byte[] letters = new byte[12 << 20];
        Random random = new Random(7);
        for (int i = 0; i < letters.length; i++) {
            letters[i] = (byte) ('a' + random.nextInt(26));
        }
        String large = new String(letters, StandardCharsets.US_ASCII);
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), echo).start();
             RawClient bystander = RawClient.open(server.port())) {
            assertEquals(1 + 0, roundTrips(bystander, received, 20).count);     // warm: the bystander is served
            int before = received.get();
            RawClient compressed = RawClient.openOffering(server.port(), "permessage-deflate");
            compressed.send(compressed.writer.text(large));
            while (received.get() < before + 1) {
                Thread.sleep(1);
            }
            compressed.close();                     // its echo is being compressed: the connection goes meanwhile
            Trips trips = roundTrips(bystander, received, 400);
            assertTrue(trips.worstMillis < BOUND_MILLIS, "a bystander's round trip took " + trips.worstMillis
                    + " ms while a closed connection's message was being compressed");
            assertTrue(trips.count > 10, "only " + trips.count + " round trips in 400 ms");
        }
    }

    private static final class Trips {
        int count;
        long worstMillis;
    }

    /** Round trips for {@code millis}; the first call only checks one works (its count is 1 when it does). */
    private static Trips roundTrips(RawClient client, AtomicInteger received, long millis) throws Exception {
        Trips trips = new Trips();
        long end = System.nanoTime() + millis * 1_000_000L;
        do {
            long t0 = System.nanoTime();
            client.send(client.writer.text("ping"));
            Frame f = client.readFrame(10_000);
            assertEquals(OpCode.TEXT, f.opcode());
            trips.worstMillis = Math.max(trips.worstMillis, (System.nanoTime() - t0) / 1_000_000);
            trips.count++;
        } while (millis > 20 && System.nanoTime() < end);
        return trips;
    }
}
