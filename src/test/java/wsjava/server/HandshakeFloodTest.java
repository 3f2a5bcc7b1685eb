package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * Issue 20, item 8 (pre-auth slowloris): half-finished handshakes counted against the connection
 * limit, so a flood of them kept a bystander at 503. They now have a smaller cap of their own (the
 * oldest goes), a cap per address, and the whole request head a short deadline.
 */
@Tag("serial")      // a 2 s refusal bound: run alone, not beside another test JVM
@Timeout(120)
class HandshakeFloodTest {

    private static final byte[] HALF_HEAD = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII);

    @Test
    void halfFinishedHandshakesCannotKeepAClientOutAtTheConnectionLimit() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).maxConnections(300), new EchoListener()).start();
        List<Socket> half = new ArrayList<>();
        try {
            for (int i = 0; i < 400; i++) {
                half.add(halfHandshake(server.port(), "127.0.0.1"));
            }
            Thread.sleep(HandshakeLimiter.STALE_NANOS / 1_000_000 + 700);      // stale, and a timer pass since
            try (RawClient bystander = RawClient.open(server.port())) {      // 503 if the half handshakes filled the limit
                bystander.send(bystander.writer.frame(OpCode.TEXT, true, "in".getBytes(), 0, 2));
                assertEquals("in", new String(bystander.readFrame(10_000).payload()));
            }
        } finally {
            for (Socket s : half) {
                s.close();
            }
            server.stop();
        }
    }

    @Test
    void oneAddressPushesOutItsOwnOldestHandshakesNotOthers() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).maxHandshakesPerAddress(10), new EchoListener()).start();
        List<Socket> flood = new ArrayList<>();
        List<Socket> other = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                other.add(halfHandshake(server.port(), "127.0.0.2"));
            }
            for (int i = 0; i < 30; i++) {
                flood.add(halfHandshake(server.port(), "127.0.0.1"));
            }
            Thread.sleep(HandshakeLimiter.STALE_NANOS / 1_000_000 + 700);
            assertEquals(20, closedByServer(flood), "the flooding address keeps its newest 10");
            assertEquals(0, closedByServer(other), "another address keeps all of its handshakes");
        } finally {
            for (Socket s : flood) {
                s.close();
            }
            for (Socket s : other) {
                s.close();
            }
            server.stop();
        }
    }

    @Test
    void aRequestHeadDrippedSlowlyGets408WellBeforeTheHandshakeTimeout() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        try (RawClient slow = new RawClient(server.port())) {
            long start = System.nanoTime();
            Thread dripper = new Thread(() -> {
                try {
                    slow.sendChopped(RawClient.request("/", "").getBytes(StandardCharsets.ISO_8859_1), 1, 500);
                } catch (IOException | InterruptedException e) {
                    // the server answered and closed
                }
            });
            dripper.setDaemon(true);
            dripper.start();
            assertEquals(408, slow.readResponseHead());
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds < 6, "408 after " + seconds + " s; the handshake timeout is 10 s, the head's deadline 3 s");
        } finally {
            server.stop();
        }
    }

    @Test
    void aRequestHeadWithBareLineFeedsGets400AtOnce() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        try (RawClient client = new RawClient(server.port())) {
            long start = System.nanoTime();
            client.send("GET / HTTP/1.1\nHost: 127.0.0.1\nUpgrade: websocket\n\n".getBytes(StandardCharsets.US_ASCII));
            client.setTimeoutMillis(10_000);
            assertEquals(400, client.readResponseHead());
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds < 2, "400 after " + seconds + " s; the head's deadline is 3 s");
        } finally {
            server.stop();
        }
    }

    private static Socket halfHandshake(int port, String from) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(from, 0));
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.getOutputStream().write(HALF_HEAD);
        return s;
    }

    /** How many of {@code sockets} the server closed (a read ends or fails at once). */
    static int closedByServer(List<Socket> sockets) throws IOException {
        int closed = 0;
        for (Socket s : sockets) {
            s.setSoTimeout(200);
            try {
                if (s.getInputStream().read() < 0) {
                    closed++;
                }
            } catch (java.net.SocketTimeoutException e) {
                // still open
            } catch (IOException e) {
                closed++;
            }
        }
        return closed;
    }
}
