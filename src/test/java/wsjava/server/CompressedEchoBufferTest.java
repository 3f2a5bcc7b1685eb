package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.testing.RawClient;

/**
 * An assembled binary message echoed as it is, compressed, gives its pooled direct buffer back once
 * it is compressed: the queue holds (and counts) the compressed bytes. Kept until they were written,
 * the buffers of a client that reads nothing were counted nowhere (67.5 MiB of direct memory while
 * the books said at most 12 MiB).
 */
@Timeout(120)
class CompressedEchoBufferTest {

    private static final int MIB = 1024 * 1024;
    private static final int COUNT = 60;

    private static long directInUse() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        throw new AssertionError("no direct buffer pool");
    }

    /** Direct memory in use once the collector has freed what nobody holds. */
    private static long directHeld() throws InterruptedException {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
            least = Math.min(least, directInUse());
        }
        return least;
    }

    @Test
    void aCompressedEchoGivesItsPooledBufferBackOnceCompressed() throws Exception {
        AtomicInteger received = new AtomicInteger();
        WebSocketListener echo = new WebSocketListener() {
            @Override
            public void onBinary(WebSocketConnection connection, ByteBuffer message) {
                received.incrementAndGet();
                connection.sendBinary(message);       // the pooled buffer, sent as it is
            }
        };
        ServerConfig config = new ServerConfig().port(0).ioThreads(1).readPauseBytes(512L * MIB).outboundLimitBytes(512L * MIB);
        byte[] letters = new byte[MIB];
        Random random = new Random(7);
        for (int i = 0; i < letters.length; i++) {
            letters[i] = (byte) ('a' + random.nextInt(26));     // compresses to about 60%: the echoes back up
        }
        long before = directHeld();
        try (WebSocketServer server = new WebSocketServer(config, echo).start();
             RawClient c = RawClient.openOffering(server.port(), "permessage-deflate")) {
            byte[] frame = c.writer.binary(letters);
            for (int i = 0; i < COUNT; i++) {
                c.send(frame);                          // and reads nothing
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (received.get() < COUNT && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(COUNT, received.get());
            long held = -1;
            while (server.outputHeldBytes() != held && System.nanoTime() < deadline) {     // until the worker is done
                held = server.outputHeldBytes();
                Thread.sleep(500);
            }
            long grown = directHeld() - before;
            System.out.println("compressed echoes: direct memory held " + grown / MIB + " MiB beyond the start, output held " + held / MIB + " MiB");
            assertTrue(held > 10L * MIB, "the echoes wait, compressed, in the queue: " + held);
            // what the pool may keep, plus the I/O thread's own direct buffers (its read buffer, the JDK's for writes)
            assertTrue(grown <= DirectPool.MAX_KEPT_BYTES + 4L * MIB, "direct memory held beyond what the pool may keep: "
                    + grown / MIB + " MiB, the books " + held / MIB + " MiB of output");
        }
    }
}
