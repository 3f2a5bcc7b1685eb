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

    /** Every compression worker waits until closed, so every lane's next job waits too: a late job, for sure. */
    private static final class WorkersHeld implements AutoCloseable {
        private final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);

        WorkersHeld() throws InterruptedException {
            java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(CompressionLane.WORKER_COUNT);
            for (int i = 0; i < CompressionLane.WORKER_COUNT; i++) {
                new CompressionLane(e -> { }).add(() -> {
                    holding.countDown();
                    try {
                        release.await(60, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            assertTrue(holding.await(10, java.util.concurrent.TimeUnit.SECONDS), "the workers were not all held");
        }

        @Override
        public void close() {
            release.countDown();
        }
    }

    /** publish documents that its array is not kept after the call: a subscriber whose lane is busy must not read it later. */
    @Test
    void aSubscriberBehindACompressionGetsThePublishAsItWasWhenPublishReturned() throws Exception {
        Echo echo = new Echo();
        byte[] expected = new byte[100];
        Arrays.fill(expected, (byte) 'A');
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), echo).start()) {
            List<RawClient> subscribers = new ArrayList<>();
            try (WorkersHeld held = new WorkersHeld()) {
                for (int i = 0; i < 3; i++) {
                    RawClient c = RawClient.openOffering(server.port(), "permessage-deflate");
                    subscribers.add(c);
                    c.send(c.writer.text(letters(100 * 1024, i)));     // its echo waits in its lane for a worker
                }
                echo.await(subscribers.size());
                byte[] data = expected.clone();
                assertEquals(subscribers.size(), server.publish("news", data), "subscribers that took the publish");
                Arrays.fill(data, (byte) 'B');       // allowed once publish returned
            }
            int changed = 0;
            for (RawClient c : subscribers) {
                Frame published = c.readFrame(20_000);
                while (published.opcode() != OpCode.BINARY) {
                    published = c.readFrame(20_000);   // the echo's frames first
                }
                changed += Arrays.equals(expected, published.payload()) ? 0 : 1;
                c.close();
            }
            assertEquals(0, changed, "of " + subscribers.size() + " subscribers, these got the array as changed after publish returned");
        }
    }

    /**
     * A connection's echo waits in its lane (every worker is held) while the connection closes. When
     * the echo's turn comes it must not make a new zlib stream: nothing would free it, and the
     * server's count of zlib memory (which decides whether new connections may compress at all)
     * would keep it for good.
     */
    @Test
    void anEchoWhoseConnectionClosedWhileItWaitedMakesNoZlibStream() throws Exception {
        Echo echo = new Echo();
        int closing = 5;
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), echo).start()) {
            try (WorkersHeld held = new WorkersHeld()) {
                for (int i = 0; i < closing; i++) {
                    RawClient c = RawClient.openOffering(server.port(), "permessage-deflate");
                    c.send(c.writer.text(letters(100 * 1024, i)));
                    echo.await(i + 1);
                    c.close();
                }
                long deadline = System.nanoTime() + 20_000_000_000L;
                while (server.socketCount() > 0 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertEquals(0, server.socketCount(), "connections left while their echoes wait");
            }
            // A payload waiting for its job counts in the inbound budget until the job has run: at 0, every job has.
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (server.limits().inbound.used() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
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

    /** Telling of a failure may fail too (out of memory again): the lane still goes on. */
    @Test
    void aFailureWhoseReportFailsStillLeavesTheLaneGoing() throws Exception {
        CompressionLane lane = new CompressionLane(e -> {
            throw new OutOfMemoryError("no memory to tell of it either");
        });
        java.util.concurrent.CountDownLatch behind = new java.util.concurrent.CountDownLatch(1);
        lane.add(() -> {
            throw new OutOfMemoryError("no memory to compress");
        });
        lane.add(behind::countDown);
        assertTrue(behind.await(10, java.util.concurrent.TimeUnit.SECONDS), "the job behind the failed one never ran");
    }

    /** A job of a connection's lane that fails ends the connection: with 1011 (its listener hears why), or at once when memory ran out. */
    @Test
    void aConnectionWhoseLaneJobFailedEndsWith1011() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
             RawClient failed = RawClient.openOffering(server.port(), "permessage-deflate");
             RawClient shed = RawClient.openOffering(server.port(), "permessage-deflate")) {
            IllegalStateException error = new IllegalStateException("compressing failed");
            laneOf(TopicsTest.awaitOpened(listener, 1)).add(() -> {
                throw error;
            });
            Frame close = failed.readFrame(10_000);
            assertEquals(OpCode.CLOSE, close.opcode());
            assertEquals(1011, (close.payload()[0] & 0xFF) << 8 | (close.payload()[1] & 0xFF));
            assertTrue(listener.errors.contains(error), "the listener did not hear the failure: " + listener.errors);

            laneOf(TopicsTest.awaitOpened(listener, 2)).add(() -> {
                throw new OutOfMemoryError("no memory to compress");
            });
            assertEquals(RawClient.EOF, shed.readFrame(10_000), "a connection shed for memory gets no close frame");
            assertEquals(1011, listener.closeOf(listener.opened.get(1).id()).get(10, java.util.concurrent.TimeUnit.SECONDS));
        }
    }

    private static ServerConnection connectionOf(WebSocketConnection handle) throws ReflectiveOperationException {
        java.lang.reflect.Field field = ConnectionHandle.class.getDeclaredField("connection");
        field.setAccessible(true);
        return (ServerConnection) field.get(handle);
    }

    private static CompressionLane laneOf(WebSocketConnection handle) throws ReflectiveOperationException {
        java.lang.reflect.Field field = MessageEncoder.class.getDeclaredField("lane");
        field.setAccessible(true);
        return (CompressionLane) field.get(connectionOf(handle).codec.encoder());
    }
}
