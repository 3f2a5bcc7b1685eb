package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

class ServerFeaturesTest {

    private static WebSocketServer start(ServerConfig config, WebSocketListener listener) throws Exception {
        return new WebSocketServer(config.port(0), listener).start();
    }

    private static int status(int port, String request) throws Exception {
        try (RawClient c = new RawClient(port)) {
            return c.sendRequest(request);
        }
    }

    @Test
    void connectionsOverTheLimitGet503() throws Exception {
        WebSocketServer server = start(new ServerConfig().maxConnections(2), new EchoListener());
        try (RawClient a = RawClient.open(server.port()); RawClient b = RawClient.open(server.port());
             RawClient c = new RawClient(server.port())) {
            assertEquals(503, c.readResponseHead());
        } finally {
            server.stop();
        }
    }

    @Test
    void accessTokenIsRequiredWhenSet() throws Exception {
        WebSocketServer server = start(new ServerConfig().accessToken("s3cret"), new EchoListener());
        try {
            assertEquals(401, status(server.port(), RawClient.request("/", "")));
            assertEquals(401, status(server.port(), RawClient.request("/?token=wrong", "")));
            assertEquals(101, status(server.port(), RawClient.request("/?token=s3cret", "")));
            assertEquals(101, status(server.port(), RawClient.request("/", "Authorization: Bearer s3cret\r\n")));
        } finally {
            server.stop();
        }
    }

    @Test
    void tokensArePercentDecodedAndAMalformedQueryGets400() throws Exception {
        WebSocketServer server = start(new ServerConfig().accessToken("a+b/c="), new EchoListener());
        try {
            assertEquals(101, status(server.port(), RawClient.request("/?token=a+b/c=", "")), "'+' is not a space");
            assertEquals(101, status(server.port(), RawClient.request("/?token=a%2Bb%2Fc%3D", "")));
            assertEquals(401, status(server.port(), RawClient.request("/?token=a%20b/c=", "")));
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(400, c.sendRequest(RawClient.request("/?token=%zz", "")));
                assertTrue(c.readToEof().contains("malformed percent-encoding"));
            }
            try (RawClient after = new RawClient(server.port())) {
                assertEquals(101, after.handshake("/?token=a+b/c=", ""));
                after.send(after.writer.frame(OpCode.TEXT, true, new byte[] {'k'}, 0, 1));
                assertEquals(OpCode.TEXT, after.readFrame(5_000).opcode(), "the server still serves");
            }
        } finally {
            server.stop();
        }
    }

    @Test
    void originAllowListAndItsDefaults() throws Exception {
        WebSocketServer server = start(new ServerConfig().addAllowedOrigin("http://127.0.0.1:20560/"), new EchoListener());
        try {
            int port = server.port();
            assertEquals(101, status(port, RawClient.request("/", "")), "no Origin: a non-browser client");
            assertEquals(101, status(port, RawClient.request("/", "Origin: http://localhost:" + port + "\r\n")));
            assertEquals(101, status(port, RawClient.request("/", "Origin: http://127.0.0.1:20560\r\n")));
            assertEquals(403, status(port, RawClient.request("/", "Origin: http://127.0.0.1:9999\r\n")));
            assertEquals(403, status(port, RawClient.request("/", "Origin: null\r\n")));
        } finally {
            server.stop();
        }
        WebSocketServer open = start(new ServerConfig().allowAnyOrigin(true), new EchoListener());
        try {
            assertEquals(101, status(open.port(), RawClient.request("/", "Origin: http://anywhere.example\r\n")));
        } finally {
            open.stop();
        }
    }

    @Test
    void keepalivePingsAndIdleTimeout() throws Exception {
        RecordingListener listener = new RecordingListener();
        WebSocketServer server = start(new ServerConfig().pingIntervalMillis(200).idleTimeoutMillis(1_500), listener);
        try (RawClient c = RawClient.open(server.port())) {
            Frame ping = c.readFrame(3_000);
            assertEquals(OpCode.PING, ping.opcode(), "keepalive ping");
            Frame next = c.readFrame(5_000);
            while (next.opcode() == OpCode.PING) {
                next = c.readFrame(5_000);      // we never answer, so the idle timeout fires
            }
            assertEquals(OpCode.CLOSE, next.opcode());
            assertEquals(1001, (next.payload()[0] & 0xFF) << 8 | (next.payload()[1] & 0xFF));
        } finally {
            server.stop();
        }
    }

    /**
     * A listener that blocks (which it must not, but may) holds up its loop; a connection whose
     * message the same loop read meanwhile was heard, and must not be taken for idle once the loop
     * goes on. Three clients on one I/O thread: "busy" holds the loop so that "slow" and "hi" are
     * read in one pass, then "slow" blocks it for 1.5 s, past the 1 s idle timeout.
     */
    @Test
    void aBlockingListenerDoesNotMakeAnotherConnectionLookIdle() throws Exception {
        EchoListener echo = new EchoListener();
        WebSocketListener listener = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                try {
                    Thread.sleep(text.equals("busy") ? 200 : text.equals("slow") ? 1_500 : 0);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                echo.onText(connection, text);
            }
        };
        WebSocketServer server = start(new ServerConfig().ioThreads(1).idleTimeoutMillis(1_000), listener);
        try (RawClient a = RawClient.open(server.port()); RawClient b = RawClient.open(server.port());
             RawClient c = RawClient.open(server.port())) {
            c.send(c.writer.text("busy"));
            Thread.sleep(50);
            a.send(a.writer.text("slow"));
            b.send(b.writer.text("hi"));
            assertEquals("hi", new String(b.readFrame(5_000).payload(), StandardCharsets.UTF_8));
            Thread.sleep(200);
            b.send(b.writer.text("still here"));
            Frame next = b.readFrame(5_000);
            assertEquals(OpCode.TEXT, next.opcode(), "heard while the loop was held, so not idle when it went on");
            assertEquals("still here", new String(next.payload(), StandardCharsets.UTF_8));
        } finally {
            server.stop();
        }
    }

    @Test
    void serverDropsTcpWhenThePeerNeverAnswersItsClose() throws Exception {
        RecordingListener listener = new RecordingListener();
        WebSocketServer server = start(new ServerConfig().closeTimeoutMillis(500), listener);
        try (RawClient c = RawClient.open(server.port())) {
            listener.opened.get(0).close(1000, "bye");
            assertEquals(OpCode.CLOSE, c.readFrame(3_000).opcode());
            assertTrue(c.closedByServerWithin(3_000), "TCP closed after the close timeout");
            assertEquals(1000, listener.closeOf(listener.opened.get(0).id()).get(3, TimeUnit.SECONDS));
        } finally {
            server.stop();
        }
    }

    @Test
    void broadcastReachesEveryOpenConnection() throws Exception {
        RecordingListener listener = new RecordingListener();
        WebSocketServer server = start(new ServerConfig(), listener);
        List<RawClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) {
                clients.add(RawClient.open(server.port()));
            }
            while (server.connectionCount() < 10) {
                Thread.sleep(5);
            }
            assertEquals(10, server.broadcastText("to all"));
            for (RawClient c : clients) {
                Frame f = c.readFrame(3_000);
                assertEquals("to all", new String(f.payload(), StandardCharsets.UTF_8));
            }
        } finally {
            for (RawClient c : clients) {
                c.close();
            }
            server.stop();
        }
    }

    @Test
    void connectionExposesTheUpgradeRequest() throws Exception {
        RecordingListener listener = new RecordingListener();
        WebSocketServer server = start(new ServerConfig().addSubprotocol("wljs").addSubprotocol("chat"), listener);
        try (RawClient c = new RawClient(server.port())) {
            assertEquals(101, c.handshake("/kernel?id=7", "Sec-WebSocket-Protocol: chat, wljs\r\nX-Client: test\r\n"));
            assertTrue(c.responseHead().contains("Sec-WebSocket-Protocol: wljs\r\n"));
            while (listener.opened.isEmpty()) {
                Thread.sleep(5);
            }
            WebSocketConnection conn = listener.opened.get(0);
            assertEquals("/kernel", conn.path());
            assertEquals("id=7", conn.query());
            assertEquals("test", conn.header("x-client"));
            assertEquals("wljs", conn.subprotocol());
            assertTrue(conn.remoteAddress().startsWith("127.0.0.1:"));
            assertNull(conn.header("origin"));
        } finally {
            server.stop();
        }
    }

    @Test
    void plainHttpServesTheDemoPageAnd404And405() throws Exception {
        WebSocketServer server = start(new ServerConfig(), new EchoListener());
        try {
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(200, c.sendRequest("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
                String page = c.readToEof();
                assertTrue(page.contains("<title>WSJava demo</title>"));
                assertTrue(!page.contains("http://") && !page.contains("https://"), "no external assets");
            }
            assertEquals(404, status(server.port(), "GET /missing HTTP/1.1\r\nHost: x\r\n\r\n"));
            assertEquals(405, status(server.port(), "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"));
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(200, c.sendRequest("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n"));
                assertEquals("", c.readToEof(), "HEAD: the head only");
            }
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(200, c.sendRequest("GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"),
                        "an h2c upgrade offer is ignored: the page is served");
            }
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(404, c.sendRequest("GET /missing HTTP/1.1\r\nHost: x\r\n\r\n"));
                assertTrue(c.responseHead().contains("X-Content-Type-Options: nosniff"));
            }
            assertEquals(400, status(server.port(), "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n"));
        } finally {
            server.stop();
        }
    }

    @Test
    void sendingFromManyThreadsNeverInterleavesFrames() throws Exception {
        RecordingListener listener = new RecordingListener();
        WebSocketServer server = start(new ServerConfig().outboundFragmentSize(1000), listener);
        try (RawClient c = RawClient.open(server.port())) {
            while (listener.opened.isEmpty()) {
                Thread.sleep(5);
            }
            WebSocketConnection conn = listener.opened.get(0);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                Thread thread = new Thread(() -> {
                    for (int i = 0; i < 50; i++) {
                        conn.sendText(String.valueOf((char) ('A' + id)).repeat(5000));   // 5 fragments each
                    }
                });
                threads.add(thread);
                thread.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            for (int m = 0; m < 200; m++) {
                Frame first = c.readFrame(5_000);
                assertEquals(OpCode.TEXT, first.opcode());
                StringBuilder whole = new StringBuilder(new String(first.payload(), StandardCharsets.UTF_8));
                Frame f = first;
                while (!f.fin()) {
                    f = c.readFrame(5_000);
                    assertEquals(OpCode.CONTINUATION, f.opcode(), "another message's frame inside a fragmented one");
                    whole.append(new String(f.payload(), StandardCharsets.UTF_8));
                }
                String s = whole.toString();
                assertEquals(5000, s.length());
                assertEquals(String.valueOf(s.charAt(0)).repeat(5000), s);
            }
        } finally {
            server.stop();
        }
    }
}
