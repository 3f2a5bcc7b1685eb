package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * The I/O thread never waits for a compression running on a worker: not on its timer pass (which
 * frees idle compressors), and not when the connection being compressed for closes. Either wait
 * stalled every other connection of that thread for the rest of the compression. The compression
 * that outlives its connection frees its zlib stream itself.
 */
@Tag("serial")      // a bystander's round trips against a bound: run alone, not beside another test JVM
@Timeout(60)
class CompressionWaitTest {

    /** Well under the time the compression takes (about 400 ms here), well over a round trip on a quiet machine. */
    private static final long BOUND_MILLIS = 100;

    @Test
    void aBystanderIsServedWhileAnotherConnectionsMessageIsCompressedAndWhenThatConnectionCloses() throws Exception {
        AtomicInteger received = new AtomicInteger();
        AtomicReference<WebSocketConnection> compressing = new AtomicReference<>();
        WebSocketListener echo = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                if (text.length() > 1000) {
                    compressing.set(connection);
                }
                connection.sendText(text);          // on the I/O thread: a large one is compressed on a worker
                received.incrementAndGet();
            }
        };
        byte[] letters = new byte[15 << 20];
        Random random = new Random(7);
        for (int i = 0; i < letters.length; i++) {
            letters[i] = (byte) ('a' + random.nextInt(26));
        }
        String large = new String(letters, StandardCharsets.US_ASCII);
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), echo).start();
             RawClient bystander = RawClient.open(server.port())) {
            roundTrips(bystander, 20);       // warm: the bystander is served
            RawClient compressed = RawClient.openOffering(server.port(), "permessage-deflate");
            int before = received.get();
            compressed.send(compressed.writer.text(large));
            long deadline = System.nanoTime() + 20_000_000_000L;
            while ((received.get() == before || server.zlibBytes() == 0) && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertTrue(server.zlibBytes() > 0, "the compression did not start");

            // The timer pass asks each connection's compressor whether it is idle, every 100 ms.
            Trips open = roundTrips(bystander, 150);
            assertTrue(open.worstMillis < BOUND_MILLIS, "a bystander's round trip took " + open.worstMillis
                    + " ms while another connection's message was being compressed");
            assertTrue(encoderOf(compressing.get()).compressing(), "the compression ended before the close: the test would prove less");
            compressed.close();                     // its echo is being compressed: the connection goes meanwhile
            Trips closing = roundTrips(bystander, 300);
            assertTrue(closing.worstMillis < BOUND_MILLIS, "a bystander's round trip took " + closing.worstMillis
                    + " ms after the connection whose message was being compressed closed");
            assertTrue(open.count > 3 && closing.count > 5, "round trips: " + open.count + " and " + closing.count);

            deadline = System.nanoTime() + 20_000_000_000L;     // the compression, ended after its connection, frees its stream
            while (server.zlibBytes() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(0, server.zlibBytes(), "zlib memory still counted after the connection and its compression ended");
        }
    }

    /** The connection's encoder (its compression lane is busy while a worker compresses for it). */
    private static MessageEncoder encoderOf(WebSocketConnection handle) throws ReflectiveOperationException {
        java.lang.reflect.Field field = ConnectionHandle.class.getDeclaredField("connection");
        field.setAccessible(true);
        return ((ServerConnection) field.get(handle)).codec.encoder();
    }

    private static final class Trips {
        int count;
        long worstMillis;
    }

    /** Round trips for {@code millis}, at least one. */
    private static Trips roundTrips(RawClient client, long millis) throws Exception {
        Trips trips = new Trips();
        long end = System.nanoTime() + millis * 1_000_000L;
        do {
            long t0 = System.nanoTime();
            client.send(client.writer.text("ping"));
            Frame f = client.readFrame(10_000);
            assertEquals(OpCode.TEXT, f.opcode());
            trips.worstMillis = Math.max(trips.worstMillis, (System.nanoTime() - t0) / 1_000_000);
            trips.count++;
        } while (System.nanoTime() < end);
        return trips;
    }
}
