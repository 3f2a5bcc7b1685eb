package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.PeerDeflate;
import wsjava.testing.RawClient;

/**
 * A send that returned true is delivered before the close frame that follows it, on every path:
 * large messages compressed on a worker (sent from the I/O thread), then the client's close, the
 * listener's close, a broadcast, a publish, and a graceful stop.
 */
@Tag("serial")      // a slow reader's 50 ms pauses under a 500 ms close timeout: run alone, not beside another test JVM
@Timeout(120)
class MessageThenCloseOrderTest {

    private static final int COUNT = 40;
    /** Large enough to be compressed on a worker when sent from the I/O thread. */
    private static final int SIZE = 100 * 1024;

    /** Random letters: they compress, but slowly enough that a close frame queued at once would overtake them. */
    static String letters(int seed) {
        Random random = new Random(seed);
        char[] chars = new char[SIZE];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(chars);
    }

    /** What the client read: whole messages (inflated), then the close frame's code (-1: TCP closed without one). */
    static final class Received {
        final List<String> messages = new ArrayList<>();
        int closeCode = -1;
    }

    static Received readUntilClose(RawClient c) throws Exception {
        return readUntilClose(c, 0);
    }

    /** Reads as {@link #readUntilClose(RawClient)} does, pausing {@code pauseMillis} after each message: a slow reader. */
    static Received readUntilClose(RawClient c, long pauseMillis) throws Exception {
        PeerDeflate codec = new PeerDeflate(false, false);
        Received got = new Received();
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        boolean compressed = false;
        while (true) {
            Frame f = c.readFrame(20_000);
            if (f == RawClient.EOF) {
                return got;
            }
            if (f.opcode() == OpCode.CLOSE) {
                byte[] p = f.payload();
                got.closeCode = p.length >= 2 ? ((p[0] & 0xFF) << 8) | (p[1] & 0xFF) : 1005;
                return got;
            }
            if (f.opcode() == OpCode.PING || f.opcode() == OpCode.PONG) {
                continue;
            }
            if (f.opcode() != OpCode.CONTINUATION) {
                compressed = (f.header().rsv() & 4) != 0;
            }
            message.write(f.payload());
            if (f.fin()) {
                byte[] payload = compressed ? codec.inflate(message.toByteArray()) : message.toByteArray();
                got.messages.add(new String(payload, StandardCharsets.UTF_8));
                message.reset();
                Thread.sleep(pauseMillis);
            }
        }
    }

    private static RawClient open(WebSocketServer server) throws Exception {
        return RawClient.openOffering(server.port(), "permessage-deflate");
    }

    /** Echoes every text message, counting the sends that returned true. */
    private static final class CountingEcho implements WebSocketListener {
        final AtomicInteger accepted = new AtomicInteger();

        @Override
        public void onText(WebSocketConnection connection, String text) {
            if (connection.sendText(text)) {
                accepted.incrementAndGet();
            }
        }
    }

    @Test
    void echoesAcceptedBeforeTheClientsCloseAreAllDelivered() throws Exception {
        CountingEcho echo = new CountingEcho();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), echo).start();
             RawClient c = open(server)) {
            ByteArrayOutputStream burst = new ByteArrayOutputStream();
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < COUNT; i++) {
                sent.add(letters(i));
                burst.write(c.writer.text(sent.get(i)));
            }
            burst.write(c.writer.close(1000, ""));
            c.send(burst.toByteArray());        // the close right behind the messages, in one write
            Received got = readUntilClose(c);
            assertEquals(COUNT, echo.accepted.get(), "every echo was accepted");
            assertEquals(COUNT, got.messages.size(), "echoes delivered before the close frame");
            assertEquals(sent, got.messages);
            assertEquals(1000, got.closeCode);
        }
    }

    @Test
    void repliesBeforeTheListenersCloseAreAllDelivered() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        WebSocketListener replier = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                for (int i = 0; i < COUNT; i++) {
                    if (connection.sendText(letters(i))) {
                        accepted.incrementAndGet();
                    }
                }
                connection.close(1000, "replied");
            }
        };
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), replier).start();
             RawClient c = open(server)) {
            c.send(c.writer.text("go"));
            Received got = readUntilClose(c);
            assertEquals(COUNT, accepted.get());
            assertEquals(COUNT, got.messages.size(), "replies delivered before the close frame");
            assertEquals(letters(COUNT - 1), got.messages.get(COUNT - 1));
            assertEquals(1000, got.closeCode);
        }
    }

    /**
     * The close timeout cuts a peer that stopped reading, not one still reading what was promised:
     * the replies take the worker longer to compress than the timeout, and the client, pausing after
     * each one, takes six times the timeout to read them, yet gets them all before the close frame.
     */
    @Test
    void repliesThatOutlastTheCloseTimeoutAreAllDeliveredToAPeerStillReading() throws Exception {
        int count = 60;      // about 1.2 s of deflate in all, about 36 MB on the wire: far past the socket buffers
        String big = letters(7).repeat(10);      // 1,000 KiB of letters: about 20 ms of deflate each
        AtomicInteger accepted = new AtomicInteger();
        WebSocketListener replier = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                for (int i = 0; i < count; i++) {
                    if (connection.sendText(big)) {
                        accepted.incrementAndGet();
                    }
                }
                connection.close(1000, "replied");
            }
        };
        ServerConfig config = new ServerConfig().port(0).closeTimeoutMillis(500).outboundLimitBytes(512L << 20);
        try (WebSocketServer server = new WebSocketServer(config, replier).start();
             RawClient c = open(server)) {
            c.send(c.writer.text("go"));
            Received got = readUntilClose(c, 50);
            assertEquals(count, accepted.get());
            assertEquals(count, got.messages.size(), "replies delivered before the close frame");
            assertEquals(1000, got.closeCode);
        }
    }

    @Test
    void broadcastsAndPublishesBeforeACloseAreAllDelivered() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        WebSocketListener sender = new WebSocketListener() {
            @Override
            public void onOpen(WebSocketConnection connection) {
                connection.subscribe("news");
            }

            @Override
            public void onText(WebSocketConnection connection, String text) {
                WebSocketServer server = connection.server();
                for (int i = 0; i < COUNT / 4; i++) {
                    accepted.addAndGet(connection.sendText(letters(i)) ? 1 : 0);    // the lane is busy from here on
                    accepted.addAndGet(server.broadcastText("broadcast " + i));
                    accepted.addAndGet(server.publish("news", "publish " + i));
                    accepted.addAndGet(server.broadcastBinary(letters(1000 + i).getBytes(StandardCharsets.UTF_8)));
                }
                connection.close(1000, "sent");
            }
        };
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), sender).start();
             RawClient c = open(server)) {
            c.send(c.writer.text("go"));
            Received got = readUntilClose(c);
            assertEquals(COUNT, accepted.get(), "one connection took every send");
            assertEquals(COUNT, got.messages.size(), "broadcasts and publishes delivered before the close frame");
            assertEquals("publish " + (COUNT / 4 - 1), got.messages.get(COUNT - 2));
            assertEquals(1000, got.closeCode);
        }
    }

    @Test
    void sendsBeforeAGracefulStopAreAllDelivered() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        WebSocketListener stopper = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                for (int i = 0; i < COUNT; i++) {
                    accepted.addAndGet(connection.sendText(letters(i)) ? 1 : 0);
                }
                connection.server().stop();
            }
        };
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), stopper).start();
        try (RawClient c = open(server)) {
            c.send(c.writer.text("go"));
            Received got = readUntilClose(c);
            assertEquals(COUNT, accepted.get());
            assertEquals(COUNT, got.messages.size(), "messages delivered before the stop's close frame");
            assertEquals(1001, got.closeCode);
            c.send(c.writer.close(1001, ""));
        } finally {
            server.stop();
            assertNotNull(server);
        }
    }

    @Test
    void theCloseTimeoutStillEndsAPeerThatDoesNotRead() throws Exception {
        WebSocketListener sender = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                for (int i = 0; i < COUNT; i++) {
                    connection.sendText(letters(i));
                }
                connection.close(1000, "sent");
            }
        };
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).closeTimeoutMillis(500), sender).start();
             RawClient c = open(server)) {
            c.send(c.writer.text("go"));            // then reads nothing: the messages and the close frame wait
            long start = System.nanoTime();
            while (server.socketCount() > 0 && System.nanoTime() - start < 10_000_000_000L) {
                Thread.sleep(20);
            }
            assertEquals(0, server.socketCount(), "closed within the close timeout, though the peer read nothing");
        }
    }
}
