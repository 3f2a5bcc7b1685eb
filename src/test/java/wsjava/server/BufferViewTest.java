package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * The zero-copy receive path end to end: listeners that read buffers get read-only views, listeners
 * that read arrays still get their own arrays, and an echo that sends the view straight back
 * (written at once, only the rest copied) never loses, reorders or interleaves a byte, also while
 * another thread sends on the same connection and the client is slow to read.
 */
@Timeout(120)
class BufferViewTest {

    private static final int[] SIZES = {0, 10, 125, 5000, 70_000, 400_000, 3 << 20};

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Echoes views, and notes whether each came read-only and whether sending moved it. */
    static final class ViewEcho implements WebSocketListener {
        final List<WebSocketConnection> opened = new CopyOnWriteArrayList<>();
        final List<String> problems = new CopyOnWriteArrayList<>();
        final List<Integer> sizes = new CopyOnWriteArrayList<>();

        @Override
        public void onOpen(WebSocketConnection connection) {
            opened.add(connection);
        }

        @Override
        public void onBinary(WebSocketConnection connection, ByteBuffer message) {
            if (!message.isReadOnly()) {
                problems.add("a writable buffer of " + message.remaining());
            }
            int position = message.position();
            sizes.add(message.remaining());
            connection.sendBinary(message);
            if (message.position() != position) {
                problems.add("sendBinary moved the buffer's position");
            }
        }

        @Override
        public void onBinary(WebSocketConnection connection, byte[] data) {
            problems.add("the array variant was called though the buffer variant is overridden");
        }
    }

    @Test
    void echoedViewsArriveWholeAndInOrderBesideAnotherThreadsSends() throws Exception {
        ViewEcho listener = new ViewEcho();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).compression(Compression.OFF), listener).start();
             RawClient c = RawClient.open(server.port())) {
            while (listener.opened.isEmpty()) {
                Thread.sleep(5);
            }
            WebSocketConnection conn = listener.opened.get(0);
            List<byte[]> sent = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                for (int size : SIZES) {
                    sent.add(random(size, 31L * round + size));
                }
            }
            Thread sender = new Thread(() -> {
                try {
                    for (byte[] payload : sent) {
                        c.send(c.writer.binary(payload));
                    }
                } catch (Exception e) {
                    listener.problems.add("client send failed: " + e);
                }
            });
            Thread texter = new Thread(() -> {
                for (int i = 0; i < 300; i++) {
                    conn.sendText("t" + i);
                }
            });
            sender.start();
            texter.start();
            Thread.sleep(300);     // the client reads nothing yet: writes go partly through, the rest is queued
            List<byte[]> echoed = new ArrayList<>();
            int texts = 0;
            java.io.ByteArrayOutputStream fragments = null;
            while (echoed.size() < sent.size() || texts < 300) {
                Frame f = c.readFrame(60_000);
                if (f.opcode() == OpCode.TEXT) {
                    assertTrue(f.fin() && fragments == null, "a text message never comes between a message's fragments");
                    assertEquals("t" + texts, new String(f.payload(), StandardCharsets.UTF_8), "texts in order");
                    texts++;
                    continue;
                }
                assertEquals(fragments == null ? OpCode.BINARY : OpCode.CONTINUATION, f.opcode());
                if (fragments == null) {
                    fragments = new java.io.ByteArrayOutputStream();
                }
                fragments.writeBytes(f.payload());
                if (f.fin()) {
                    echoed.add(fragments.toByteArray());
                    fragments = null;
                }
            }
            sender.join();
            texter.join();
            for (int i = 0; i < sent.size(); i++) {
                assertArrayEquals(sent.get(i), echoed.get(i), "echo " + i + " of " + sent.get(i).length + " bytes");
            }
            assertEquals(List.of(), listener.problems);
            assertEquals(sent.size(), listener.sizes.size());
        }
    }

    /**
     * The client stops reading, so echoes queue up while the server goes on reading (its read pause
     * is set high): each queued echo must be a copy, because the read buffer it came from is reused.
     */
    @Test
    void echoesQueuedBehindAFullSocketDoNotShareTheReadBuffer() throws Exception {
        ViewEcho listener = new ViewEcho();
        ServerConfig config = new ServerConfig().port(0).compression(Compression.OFF).readPauseBytes(64 << 20);
        try (WebSocketServer server = new WebSocketServer(config, listener).start(); RawClient c = RawClient.open(server.port())) {
            List<byte[]> sent = new ArrayList<>();
            sent.add(random(6 << 20, 99));                 // fills the socket buffers: the client is not reading
            for (int i = 0; i < 400; i++) {
                sent.add(random(1000 + i, i));
            }
            for (byte[] payload : sent) {
                c.send(c.writer.binary(payload));
                if (payload.length < 10_000) {
                    Thread.sleep(1);                       // one read each, so the read buffer is reused between them
                }
            }
            List<byte[]> echoed = new ArrayList<>();
            java.io.ByteArrayOutputStream fragments = new java.io.ByteArrayOutputStream();
            while (echoed.size() < sent.size()) {
                Frame f = c.readFrame(60_000);
                fragments.writeBytes(f.payload());
                if (f.fin()) {
                    echoed.add(fragments.toByteArray());
                    fragments.reset();
                }
            }
            for (int i = 0; i < sent.size(); i++) {
                assertArrayEquals(sent.get(i), echoed.get(i), "echo " + i);
            }
            assertEquals(List.of(), listener.problems);
        }
    }

    @Test
    void aListenerOfArraysGetsItsOwnArrays() throws Exception {
        List<byte[]> received = new CopyOnWriteArrayList<>();
        List<WebSocketConnection> opened = new CopyOnWriteArrayList<>();
        WebSocketListener arrays = new WebSocketListener() {
            @Override
            public void onOpen(WebSocketConnection connection) {
                opened.add(connection);
            }

            @Override
            public void onBinary(WebSocketConnection connection, byte[] data) {
                received.add(data);
            }
        };
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), arrays).start();
             RawClient c = RawClient.open(server.port())) {
            List<byte[]> sent = new ArrayList<>();
            for (int size : SIZES) {
                byte[] payload = random(size, size);
                sent.add(payload);
                c.send(c.writer.binary(payload));
            }
            c.send(c.writer.text("done"));
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (received.size() < sent.size() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(100);     // later reads reuse the read buffer: arrays kept must not change
            assertEquals(sent.size(), received.size());
            for (int i = 0; i < sent.size(); i++) {
                assertArrayEquals(sent.get(i), received.get(i), "message " + i);
            }
        }
    }
}
