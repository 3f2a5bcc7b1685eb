package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/** Misbehaving clients and listeners: each failure stays on its own connection. */
class FaultTest {

    private static void roundTrip(RawClient client, String text) throws Exception {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        client.send(client.writer.frame(OpCode.TEXT, true, b, 0, b.length));
        Frame f = client.readFrame(5_000);
        assertTrue(f != null && f.opcode() == OpCode.TEXT, "expected an echo, got " + f);
        assertEquals(text, new String(f.payload(), StandardCharsets.UTF_8));
    }

    private static int closeCode(Frame f) {
        return (f.payload()[0] & 0xFF) << 8 | (f.payload()[1] & 0xFF);
    }

    @Test
    void abruptDisconnectInTheMiddleOfAFrame() throws Exception {
        RecordingListener listener = new RecordingListener();
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
        try (RawClient other = RawClient.open(server.port())) {
            RawClient dropper = RawClient.open(server.port());
            roundTrip(other, "before");
            byte[] frame = dropper.writer.frame(OpCode.BINARY, true, new byte[10_000], 0, 10_000);
            dropper.send(Arrays.copyOf(frame, 5_000));
            dropper.abort(true);
            long dropperId = listener.opened.get(1).id();
            assertEquals(1006, listener.closeOf(dropperId).get(5, TimeUnit.SECONDS));
            roundTrip(other, "after");
            assertEquals(1, server.connectionCount());
        } finally {
            server.stop();
        }
    }

    @Test
    void halfOpenHandshakesDoNotStopOthersAndTimeOut() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).handshakeTimeoutMillis(2_000), new EchoListener()).start();
        List<RawClient> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                RawClient c = new RawClient(server.port());
                c.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n".getBytes(StandardCharsets.ISO_8859_1));
                slow.add(c);
            }
            try (RawClient normal = RawClient.open(server.port())) {
                for (int i = 0; i < 200; i++) {
                    roundTrip(normal, "served while 20 handshakes hang " + i);
                }
            }
            for (RawClient c : slow) {
                assertEquals(408, c.readResponseHead(), "a stalled handshake gets 408 Request Timeout");
                assertTrue(c.readToEof().contains("handshake not completed"), "reason in the body, then TCP close");
            }
        } finally {
            for (RawClient c : slow) {
                c.close();
            }
            server.stop();
        }
    }

    @Test
    void aListenerThatThrowsClosesOnlyItsConnectionWith1011() throws Exception {
        listenerFailureClosesOnlyItsConnection(() -> new IllegalStateException("handler bug"));
    }

    @Test
    void aListenerThatThrowsAnErrorClosesOnlyItsConnectionAndTheLoopGoesOn() throws Exception {
        listenerFailureClosesOnlyItsConnection(() -> new AssertionError("handler bug"));
    }

    private static void listenerFailureClosesOnlyItsConnection(java.util.function.Supplier<Throwable> failure) throws Exception {
        RecordingListener listener = new RecordingListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                if (text.equals("boom")) {
                    Throwable t = failure.get();
                    if (t instanceof Error) {
                        throw (Error) t;
                    }
                    throw (RuntimeException) t;
                }
                super.onText(connection, text);
            }
        };
        // One I/O thread: "other" shares the loop, so its answer shows the loop survived.
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), listener).start();
        try (RawClient victim = RawClient.open(server.port()); RawClient other = RawClient.open(server.port())) {
            roundTrip(other, "hello");
            byte[] boom = "boom".getBytes(StandardCharsets.UTF_8);
            victim.send(victim.writer.frame(OpCode.TEXT, true, boom, 0, boom.length));
            Frame close = victim.readFrame(5_000);
            assertEquals(OpCode.CLOSE, close.opcode());
            assertEquals(1011, closeCode(close));
            assertTrue(victim.closedByServerWithin(5_000));
            assertTrue(listener.errors.stream().anyMatch(e -> "handler bug".equals(e.getMessage())));
            roundTrip(other, "still fine");
        } finally {
            server.stop();
        }
    }

    @Test
    void stoppingTheServerSends1001ToLiveClients() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        List<RawClient> clients = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            clients.add(RawClient.open(server.port()));
        }
        CompletableFuture<Void> stopped = CompletableFuture.runAsync(server::stop);
        for (RawClient c : clients) {
            Frame f = c.readFrame(5_000);
            assertEquals(OpCode.CLOSE, f.opcode());
            assertEquals(1001, closeCode(f));
            c.send(c.writer.close(1001, ""));
            assertTrue(c.closedByServerWithin(5_000));
            c.close();
        }
        stopped.get(10, TimeUnit.SECONDS);
        assertTrue(server.isStopped());
    }

    @Test
    void aClientThatNeverReadsIsDroppedWithoutSlowingOthers() throws Exception {
        RecordingListener listener = new RecordingListener();
        ServerConfig config = new ServerConfig().port(0).outboundLimitBytes(8 << 20);
        WebSocketServer server = new WebSocketServer(config, listener).start();
        try (RawClient sleeper = RawClient.open(server.port()); RawClient other = RawClient.open(server.port())) {
            roundTrip(other, "warm up");
            WebSocketConnection target = listener.opened.get(0);
            byte[] chunk = new byte[64 << 10];
            int sent = 0;
            while (target.sendBinary(chunk) && sent < 100_000) {
                sent++;
                if (sent % 50 == 0) {
                    roundTrip(other, "while the sleeper sleeps " + sent);
                }
            }
            assertEquals(1008, listener.closeOf(target.id()).get(10, TimeUnit.SECONDS), "dropped as too slow");
            assertFalse(target.isOpen());
            roundTrip(other, "unaffected");
        } finally {
            server.stop();
        }
    }

    @Test
    void anEchoClientThatStopsReadingLosesNothing() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        try (RawClient client = RawClient.open(server.port())) {
            Random random = new Random(3);
            List<byte[]> sent = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                byte[] b = new byte[1 << 20];
                random.nextBytes(b);
                sent.add(b);
            }
            // 40 MiB written without reading: the server pauses reading once 1 MiB of echoes wait,
            // so this writer blocks in TCP until the reader below starts.
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    for (byte[] b : sent) {
                        client.send(client.writer.frame(OpCode.BINARY, true, b, 0, b.length));
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            Thread.sleep(1_000);
            assertFalse(writer.isDone(), "the server should have stopped reading from a client that does not read");
            for (byte[] b : sent) {
                Frame f = client.readFrame(30_000);
                assertArrayEquals(b, f.payload());
            }
            writer.get(30, TimeUnit.SECONDS);
        } finally {
            server.stop();
        }
    }
}
