package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/** What an embedder needs to slow a producer down without polling: send completions and writability. */
@Timeout(120)
class SendCompletionTest {

    @Test
    void aSendCompletesWhenWrittenAndFailsOnAClosedConnection() throws Exception {
        RecordingListener listener = new RecordingListener();
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
        try (RawClient c = RawClient.open(server.port())) {
            while (listener.opened.isEmpty()) {
                Thread.sleep(5);
            }
            WebSocketConnection conn = listener.opened.get(0);
            conn.sendTextAsync("hello").get(10, TimeUnit.SECONDS);
            Frame f = c.readFrame(10_000);
            assertEquals("hello", new String(f.payload()));
            conn.close();
            listener.closeOf(conn.id()).get(20, TimeUnit.SECONDS);
            CompletableFuture<Void> late = conn.sendBinaryAsync(new byte[3]);
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, () -> late.get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof IOException, String.valueOf(e.getCause()));
        } finally {
            server.stop();
        }
    }

    @Test
    void aProducerThatWaitsForWritabilityNeverPilesUpMoreThanTheThreshold() throws Exception {
        long threshold = 256 * 1024;
        int chunk = 32 * 1024;
        int total = 400;
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger writableCalls = new AtomicInteger();
        AtomicLong mostQueued = new AtomicLong();
        WebSocketListener producer = new WebSocketListener() {
            private void produce(WebSocketConnection c) {
                while (c.isWritable() && sent.get() < total) {
                    c.sendBinary(new byte[chunk]);
                    sent.incrementAndGet();
                    mostQueued.accumulateAndGet(c.queuedBytes(), Math::max);
                }
            }

            @Override
            public void onOpen(WebSocketConnection c) {
                produce(c);
            }

            @Override
            public void onWritable(WebSocketConnection c) {
                writableCalls.incrementAndGet();
                produce(c);
            }
        };
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).writableThresholdBytes(threshold), producer).start();
        try (RawClient c = RawClient.open(server.port())) {
            Thread.sleep(500);                      // the client reads nothing yet: the producer must stop
            assertTrue(sent.get() < total, "the producer never had to wait");
            long received = 0;
            while (received < (long) total * chunk) {
                received += c.readFrame(20_000).payload().length;
            }
            assertEquals(total, sent.get(), "everything was produced in the end");
            assertTrue(writableCalls.get() > 0, "onWritable told the producer to go on");
            assertTrue(mostQueued.get() <= threshold + chunk + 16, "queued " + mostQueued.get() + " with a threshold of " + threshold);
            assertFalse(mostQueued.get() == 0);
        } finally {
            server.stop();
        }
    }
}
