package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.testing.PeerDeflate;
import wsjava.testing.RawClient;

/** permessage-deflate seen from the server's API: options, what listeners see, concurrent sends, broadcasts. */
@Timeout(120)
class CompressionTest {

    private static String text(int i) {
        return ("Plot3D[Sin[x y], {x, -3, 3}, {y, -3, 3}, Mesh -> None] (* message " + i + " *) ").repeat(30);
    }

    /** Letters at random: little to gain within the message, everything from an identical one before it. */
    private static String letters(int n) {
        java.util.Random random = new java.util.Random(n);
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append((char) ('a' + random.nextInt(26)));
        }
        return b.toString();
    }

    private static WebSocketConnection awaitOpened(RecordingListener listener, int count) throws InterruptedException {
        while (listener.opened.size() < count) {
            Thread.sleep(5);
        }
        return listener.opened.get(count - 1);
    }

    /** Reads one message, inflating it when it came compressed. */
    private static String read(RawClient c, PeerDeflate codec) throws Exception {
        Frame f = c.readFrame(10_000);
        byte[] payload = (f.header().rsv() & 4) != 0 ? codec.inflate(f.payload()) : f.payload();
        return new String(payload, StandardCharsets.UTF_8);
    }

    @Test
    void optionsDecideWhatIsAgreedAndListenersSeeIt() throws Exception {
        RecordingListener listener = new RecordingListener();
        ServerConfig config = new ServerConfig().port(0).compression(Compression.DEFAULT.contextTakeover(false));
        try (WebSocketServer server = new WebSocketServer(config, listener).start();
             RawClient c = RawClient.openOffering(server.port(), "permessage-deflate")) {
            assertEquals("permessage-deflate; server_no_context_takeover; client_no_context_takeover", c.responseHeader("Sec-WebSocket-Extensions"));
            assertEquals(c.responseHeader("Sec-WebSocket-Extensions"), awaitOpened(listener, 1).extensions());
        }
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).compression(Compression.OFF), listener).start();
             RawClient c = RawClient.openOffering(server.port(), "permessage-deflate")) {
            assertNull(c.responseHeader("Sec-WebSocket-Extensions"));
            assertNull(awaitOpened(listener, 2).extensions());
        }
    }

    @Test
    void concurrentSendersOnOneContextArriveInflatableAndWhole() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
             RawClient c = RawClient.openOffering(server.port(), "permessage-deflate")) {
            WebSocketConnection conn = awaitOpened(listener, 1);
            int threads = 4;
            int each = 200;
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> senders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * each;
                Thread sender = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < each; i++) {
                            conn.sendText(text(base + i));
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                sender.start();
                senders.add(sender);
            }
            start.countDown();
            PeerDeflate codec = new PeerDeflate(false, false);
            boolean[] seen = new boolean[threads * each];
            for (int n = 0; n < threads * each; n++) {
                String got = read(c, codec);     // one message compressed out of order would fail to inflate here
                int i = Integer.parseInt(got.substring(got.indexOf("message ") + 8, got.indexOf(" *)")));
                assertEquals(text(i), got);
                seen[i] = true;
            }
            for (Thread s : senders) {
                s.join(10_000);
            }
            for (boolean s : seen) {
                assertTrue(s);
            }
        }
    }

    @Test
    void anIdleConnectionsCompressorIsFreedAndItsNextMessageStillInflates() throws Exception {
        RecordingListener listener = new RecordingListener();
        ServerConfig config = new ServerConfig().port(0).compression(Compression.DEFAULT.idleReleaseMillis(200));
        try (WebSocketServer server = new WebSocketServer(config, listener).start();
             RawClient c = RawClient.openOffering(server.port(), "permessage-deflate")) {
            WebSocketConnection conn = awaitOpened(listener, 1);
            PeerDeflate codec = new PeerDeflate(false, false);    // the client keeps its context throughout
            conn.sendText(letters(4000));
            Frame first = c.readFrame(10_000);
            conn.sendText(letters(4000));
            Frame again = c.readFrame(10_000);
            Thread.sleep(1_000);                                  // idle: the server frees its compressor
            conn.sendText(letters(4000));
            Frame afterIdle = c.readFrame(10_000);
            assertEquals(letters(4000), new String(codec.inflate(first.payload()), StandardCharsets.UTF_8));
            assertEquals(letters(4000), new String(codec.inflate(again.payload()), StandardCharsets.UTF_8));
            assertEquals(letters(4000), new String(codec.inflate(afterIdle.payload()), StandardCharsets.UTF_8));
            assertTrue(again.payload().length < first.payload().length / 4, "while busy the context is kept: " + again.payload().length);
            assertEquals(first.payload().length, afterIdle.payload().length, "after idling the message is compressed afresh");
        }
    }

    @Test
    void aBroadcastReachesPlainSharedAndOwnContextConnectionsAlike() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
             RawClient plain = RawClient.open(server.port());
             RawClient shared = RawClient.openOffering(server.port(), "permessage-deflate; server_no_context_takeover");
             RawClient own = RawClient.openOffering(server.port(), "permessage-deflate")) {
            awaitOpened(listener, 3);
            PeerDeflate sharedCodec = new PeerDeflate(false, true);
            PeerDeflate ownCodec = new PeerDeflate(false, false);
            for (int i = 0; i < 5; i++) {
                assertEquals(3, server.broadcastText(text(i)));
                assertEquals(text(i), read(plain, null));
                assertEquals(text(i), read(shared, sharedCodec));
                assertEquals(text(i), read(own, ownCodec));
            }
        }
    }
}
