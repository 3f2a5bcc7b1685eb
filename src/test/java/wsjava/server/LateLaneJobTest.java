package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * A send that waits in a connection's compression lane (behind a large message being compressed on
 * a worker) runs after the call that made it returned, and maybe after the connection ended. So it
 * must read nothing its caller may change once the call returned, and make nothing a closed
 * connection can no longer free. One that fails ends its connection: the send had been taken.
 */
@Timeout(120)
class LateLaneJobTest {

    /** Random letters: they compress, slowly enough that the lane stays busy for a while. */
    private static String letters(int size, int seed) {
        Random random = new Random(seed);
        byte[] b = new byte[size];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) ('a' + random.nextInt(26));
        }
        return new String(b, StandardCharsets.US_ASCII);
    }

    /** Echoes text from the I/O thread (large messages go to a worker) and counts what it got. */
    private static final class Echo implements WebSocketListener {
        final AtomicInteger received = new AtomicInteger();

        @Override
        public void onOpen(WebSocketConnection connection) {
            connection.subscribe("news");
        }

        @Override
        public void onText(WebSocketConnection connection, String text) {
            connection.sendText(text);
            received.incrementAndGet();
        }

        void await(int count) throws InterruptedException {
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (received.get() < count && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(count, received.get(), "messages the server received");
        }
    }

    /** publish documents that its array is not kept after the call: a subscriber whose lane is busy must not read it later. */
    @Test
    void aSubscriberBehindACompressionGetsThePublishAsItWasWhenPublishReturned() throws Exception {
        Echo echo = new Echo();
        String big = letters(1 << 20, 1);
        int rounds = 5;
        int changed = 0;
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), echo).start()) {
            for (int round = 0; round < rounds; round++) {
                try (RawClient c = RawClient.openOffering(server.port(), "permessage-deflate")) {
                    c.send(c.writer.text(big));
                    echo.await(round + 1);               // its echo is being compressed on a worker now
                    byte[] data = new byte[100];
                    Arrays.fill(data, (byte) 'A');
                    assertEquals(1, server.publish("news", data), "the subscriber took the publish");
                    Arrays.fill(data, (byte) 'B');       // allowed once publish returned
                    Frame published = c.readFrame(20_000);
                    while (published.opcode() != OpCode.BINARY) {
                        published = c.readFrame(20_000);   // the echo's frames first
                    }
                    byte[] expected = new byte[100];
                    Arrays.fill(expected, (byte) 'A');
                    if (!Arrays.equals(expected, published.payload())) {
                        changed++;
                    }
                }
            }
        }
        assertEquals(0, changed, "of " + rounds + " publishes, subscribers got the array as changed after publish returned");
    }

    /**
     * Every compression worker is kept busy with a large echo, so a connection's own echo waits in its
     * lane while the connection closes under it. When the echo's turn comes it must not make a new
     * zlib stream: nothing would free it, and the server's count of zlib memory (which decides
     * whether new connections may compress at all) would keep it for good.
     */
    @Test
    void anEchoWhoseConnectionClosedWhileItWaitedMakesNoZlibStream() throws Exception {
        Echo echo = new Echo();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), echo).start()) {
            List<RawClient> busy = new ArrayList<>();
            String large = letters(4 << 20, 2);
            for (int i = 0; i < CompressionLane.WORKER_COUNT; i++) {
                RawClient c = RawClient.openOffering(server.port(), "permessage-deflate");
                busy.add(c);
                c.send(c.writer.text(large));
            }
            echo.await(busy.size());
            int closing = 5;
            for (int i = 0; i < closing; i++) {
                RawClient c = RawClient.openOffering(server.port(), "permessage-deflate");
                c.send(c.writer.text(letters(200 * 1024, 3 + i)));
                echo.await(busy.size() + i + 1);     // its echo waits in its lane behind the busy workers
                c.close();
            }
            for (RawClient c : busy) {
                c.close();
            }
            // A payload waiting for its job counts in the inbound budget until the job has run: at 0, every job has.
            long deadline = System.nanoTime() + 30_000_000_000L;
            while ((server.socketCount() > 0 || server.limits().inbound.used() > 0) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(0, server.socketCount(), "connections left");
            assertEquals(0, server.limits().inbound.used(), "payloads still waiting for their compression job");
            assertTrue(server.zlibBytes() == 0, server.zlibBytes() + " bytes of zlib streams still counted after every connection closed");
        }
    }

    /**
     * A job that fails with any error, not only a runtime exception or running out of memory, is
     * reported (its connection then ends: the send had been taken) and the lane goes on: the jobs
     * behind it, the close frame among them, still run. An error that escaped left the lane busy for
     * good, so its close frame never went out and its close timeout was put off for ever.
     */
    @Test
    void aJobThatFailsIsReportedAndTheJobsBehindItStillRun() throws Exception {
        java.util.List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompressionLane lane = new CompressionLane(failures::add);
        java.util.concurrent.CountDownLatch behind = new java.util.concurrent.CountDownLatch(1);
        StackOverflowError error = new StackOverflowError("a job's own failure");
        assertTrue(lane.add(() -> {
            throw error;
        }));
        assertTrue(lane.close(() -> {
            behind.countDown();
            return true;
        }));
        assertTrue(behind.await(10, java.util.concurrent.TimeUnit.SECONDS), "the close behind the failed job never ran");
        assertEquals(List.of(error), failures);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (lane.busy() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(!lane.busy(), "the lane stayed busy after its last job");
    }

    /** What the lane does with a failed job: the connection ends with 1011 (its listener hears why), or without a frame when memory ran out. */
    @Test
    void aConnectionWhoseLaneJobFailedEndsWith1011() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
             RawClient failed = RawClient.openOffering(server.port(), "permessage-deflate");
             RawClient shed = RawClient.openOffering(server.port(), "permessage-deflate")) {
            IllegalStateException error = new IllegalStateException("compressing failed");
            outboxOf(TopicsTest.awaitOpened(listener, 1)).laneSendFailed(error);
            Frame close = failed.readFrame(10_000);
            assertEquals(OpCode.CLOSE, close.opcode());
            assertEquals(1011, (close.payload()[0] & 0xFF) << 8 | (close.payload()[1] & 0xFF));
            assertTrue(listener.errors.contains(error), "the listener did not hear the failure: " + listener.errors);

            outboxOf(TopicsTest.awaitOpened(listener, 2)).laneSendFailed(new OutOfMemoryError("no memory to compress"));
            assertEquals(RawClient.EOF, shed.readFrame(10_000), "a connection shed for memory gets no close frame");
            assertEquals(1011, listener.closeOf(listener.opened.get(1).id()).get(10, java.util.concurrent.TimeUnit.SECONDS));
        }
    }

    private static Outbox outboxOf(WebSocketConnection handle) throws ReflectiveOperationException {
        java.lang.reflect.Field field = ConnectionHandle.class.getDeclaredField("connection");
        field.setAccessible(true);
        return ((ServerConnection) field.get(handle)).outbox;
    }
}
