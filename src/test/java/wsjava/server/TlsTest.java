package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.testing.RawClient;
import wsjava.testing.TestTls;

/** wss:// with the JDK's client and https:// for the demo page; bad TLS input closes only its connection. */
@Timeout(120)
class TlsTest {

    @Test
    void theJdkClientEchoesOverWss() throws Exception {
        TestTls tls = TestTls.get();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).tls(tls.server), new EchoListener()).start()) {
            assertTrue(server.url().startsWith("wss://"), server.url());
            CompletableFuture<String> echo = new CompletableFuture<>();
            HttpClient http = HttpClient.newBuilder().sslContext(tls.client).build();
            WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create("wss://localhost:" + server.port() + "/"), new WebSocket.Listener() {
                final StringBuilder text = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                    text.append(data);
                    if (last) {
                        echo.complete(text.toString());
                    }
                    webSocket.request(1);
                    return null;
                }
            }).get(20, TimeUnit.SECONDS);
            String big = "x".repeat(300_000);
            ws.sendText(big, true);
            assertEquals(big, echo.get(20, TimeUnit.SECONDS));
            ws.sendClose(1000, "bye").get(10, TimeUnit.SECONDS);
        }
    }

    /** Reads until the server closes; true when it did within the time (EOF or reset). */
    private static boolean closedByServer(Socket s, int millis) throws Exception {
        s.setSoTimeout(millis);
        InputStream in = s.getInputStream();
        try {
            while (in.read() >= 0) {
                // whatever the server sends before closing (an alert) is dropped
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (java.io.IOException e) {
            return true;
        }
    }

    private static void awaitNoSockets(WebSocketServer server, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server.socketCount() > expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(expected, server.socketCount(), "sockets left open");
    }

    @Test
    void badTlsInputClosesOnlyThatConnectionAndLeaksNothing() throws Exception {
        TestTls tls = TestTls.get();
        ServerConfig config = new ServerConfig().port(0).tls(tls.server).handshakeTimeoutMillis(800);
        try (WebSocketServer server = new WebSocketServer(config, new EchoListener()).start()) {
            RawClient.useTls(tls.client.getSocketFactory());
            try (RawClient good = RawClient.open(server.port())) {
                RawClient.useTls(null);
                try (Socket plainHttp = new Socket("127.0.0.1", server.port())) {        // garbage instead of a ClientHello
                    plainHttp.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    assertTrue(closedByServer(plainHttp, 5_000), "plain HTTP on the TLS port is closed");
                }
                try (Socket truncated = new Socket("127.0.0.1", server.port())) {         // a ClientHello cut short, then silence
                    truncated.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01});
                    assertTrue(closedByServer(truncated, 5_000), "a stalled handshake is closed at the handshake timeout");
                }
                try (Socket silent = new Socket("127.0.0.1", server.port())) {            // connects and says nothing
                    assertTrue(closedByServer(silent, 5_000), "a silent client is closed at the handshake timeout");
                }
                SSLSocket old = (SSLSocket) tls.client.getSocketFactory().createSocket("127.0.0.1", server.port());
                old.setEnabledProtocols(new String[] {"TLSv1.1"});
                try (old) {
                    org.junit.jupiter.api.Assertions.assertThrows(SSLException.class, old::startHandshake, "TLS 1.1 is refused");
                }
                good.send(good.writer.frame(wsjava.protocol.OpCode.TEXT, true, "still here".getBytes(), 0, 10));
                assertEquals("still here", new String(good.readFrame(10_000).payload()));
                awaitNoSockets(server, 1);
            } finally {
                RawClient.useTls(null);
            }
        }
    }

    @Test
    void manyHandshakesAtOnceAllComplete() throws Exception {
        TestTls tls = TestTls.get();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).tls(tls.server).ioThreads(1), new EchoListener()).start()) {
            java.util.List<CompletableFuture<String>> echoes = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int n = i;
                echoes.add(CompletableFuture.supplyAsync(() -> {
                    RawClient.useTls(tls.client.getSocketFactory());
                    try (RawClient c = RawClient.open(server.port())) {
                        byte[] p = ("hello " + n).getBytes();
                        c.send(c.writer.frame(wsjava.protocol.OpCode.TEXT, true, p, 0, p.length));
                        return new String(c.readFrame(20_000).payload());
                    } catch (Exception e) {
                        return e.toString();
                    }
                }, java.util.concurrent.Executors.newCachedThreadPool()));
            }
            for (int i = 0; i < echoes.size(); i++) {
                assertEquals("hello " + i, echoes.get(i).get(60, TimeUnit.SECONDS));
            }
        } finally {
            RawClient.useTls(null);
        }
    }
}
