package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.testing.RawClient;

/**
 * Behind a reverse proxy or a NAT every client has one address. Sockets in their handshake are
 * judged by age and by what one more read shows: a burst of complete requests from one address all upgrade, however far past
 * the address's share the burst goes, while sockets that stopped sending are still cut to it. Only
 * a trusted proxy's X-Forwarded-For names the client.
 */
@Timeout(120)
class BurstAdmissionTest {

    private static final byte[] REQUEST = RawClient.request("/", "").getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] HALF_HEAD = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aBurstOfCompleteRequestsFromOneAddressAllUpgrade() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), new EchoListener()).start();
        List<Socket> burst = new ArrayList<>();
        try {
            for (int i = 0; i < 1_000; i++) {      // four times the default share of one address, all sent before any answer is read
                burst.add(connect(server.port(), "127.0.0.1", REQUEST));
            }
            assertEquals(1_000, upgraded(burst), "complete requests from one address upgraded");
        } finally {
            closeAll(burst);
            server.stop();
        }
    }

    @Test
    void stalledHandshakesAreCutToTheirShareWhileCompleteOnesFromTheSameAddressUpgrade() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).maxHandshakesPerAddress(10), new EchoListener()).start();
        List<Socket> stalled = new ArrayList<>();
        List<Socket> burst = new ArrayList<>();
        try {
            for (int i = 0; i < 30; i++) {
                stalled.add(connect(server.port(), "127.0.0.1", HALF_HEAD));
            }
            Thread.sleep(HandshakeLimiter.STALE_NANOS / 1_000_000 + 700);      // stale, and a timer pass since
            for (int i = 0; i < 200; i++) {
                burst.add(connect(server.port(), "127.0.0.1", REQUEST));
            }
            assertEquals(200, upgraded(burst), "complete requests upgrade past the share");
            // the burst itself counts toward the share while it waits to be read, so the stalled may go below it
            int closed = HandshakeFloodTest.closedByServer(stalled);
            assertTrue(closed >= 20, "the stalled sockets are cut to the address's share of 10: " + closed + " of 30 closed");
        } finally {
            closeAll(stalled);
            closeAll(burst);
            server.stop();
        }
    }

    /** A byte every 150 ms is no reason to stay: the head never completes, so the socket is cut like a silent one. */
    @Test
    void aSlowlorisThatDripsItsHeadIsCutToItsShare() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).maxHandshakesPerAddress(10).headTimeoutMillis(30_000),
                new EchoListener()).start();
        List<Socket> dripping = new ArrayList<>();
        try {
            byte[] start = "GET / HTTP/1.1\r\nX-Drip: ".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 30; i++) {
                dripping.add(connect(server.port(), "127.0.0.1", start));
            }
            long end = System.nanoTime() + HandshakeLimiter.STALE_NANOS + 1_500_000_000L;
            while (System.nanoTime() < end) {      // a header value that never ends, a byte at a time
                for (Socket s : dripping) {
                    try {
                        s.getOutputStream().write('a');
                    } catch (IOException e) {
                        // pushed out already
                    }
                }
                Thread.sleep(150);
            }
            int held = server.limits().handshakes.size();      // read while they still drip: none has gone quiet
            assertTrue(held <= 10, "the dripping sockets are cut to the address's share of 10: " + held + " of 30 held");
        } finally {
            closeAll(dripping);
            server.stop();
        }
    }

    @Test
    void onlyATrustedProxyNamesTheClient() throws Exception {
        BlockingQueue<String> seen = new ArrayBlockingQueue<>(8);
        WebSocketListener listener = new WebSocketListener() {
            @Override
            public void onOpen(WebSocketConnection connection) {
                seen.add(connection.remoteAddress());
            }
        };
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).addTrustedProxy("127.0.0.1").addTrustedProxy("10.0.0.9"),
                listener).start();
        String forwarded = "X-Forwarded-For: 6.6.6.6, 10.0.0.7, 10.0.0.9\r\n";
        byte[] request = RawClient.request("/", forwarded).getBytes(StandardCharsets.ISO_8859_1);
        List<Socket> sockets = new ArrayList<>();
        try {
            sockets.add(connect(server.port(), "127.0.0.1", request));
            assertEquals("10.0.0.7", seen.poll(10, TimeUnit.SECONDS), "the last hop that is not a trusted proxy");
            sockets.add(connect(server.port(), "127.0.0.2", request));
            String untrusted = seen.poll(10, TimeUnit.SECONDS);
            assertEquals("127.0.0.2", HandshakeLimiter.addressOf(untrusted), "an untrusted peer's header is ignored: " + untrusted);
            sockets.add(connect(server.port(), "127.0.0.1", RawClient.request("/", "X-Forwarded-For: 6.6.6.6, not-an-address\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1)));
            String garbled = seen.poll(10, TimeUnit.SECONDS);
            assertEquals("127.0.0.1", HandshakeLimiter.addressOf(garbled), "a hop that is no address stops the walk: " + garbled);
        } finally {
            closeAll(sockets);
            server.stop();
        }
    }

    static Socket connect(int port, String from, byte[] bytes) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(from, 0));
        s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        s.getOutputStream().write(bytes);
        return s;
    }

    /** How many of {@code sockets} were answered 101. */
    static int upgraded(List<Socket> sockets) throws IOException {
        int ok = 0;
        for (Socket s : sockets) {
            s.setSoTimeout(20_000);
            if (status(s.getInputStream()) == 101) {
                ok++;
            }
        }
        return ok;
    }

    private static int status(InputStream in) {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        try {
            while (head.size() < 12) {
                int b = in.read();
                if (b < 0) {
                    return -1;
                }
                head.write(b);
            }
            return Integer.parseInt(head.toString(StandardCharsets.ISO_8859_1).substring(9, 12));
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
    }
}
