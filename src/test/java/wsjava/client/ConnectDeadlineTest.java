package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;
import wsjava.testing.RawServer;
import wsjava.testing.TestTls;

/**
 * Issue 20, item 7: the connect timeout used to apply per read, so a server that drips a valid 101
 * a byte every 2 s kept {@code connect()} (and WSJavaConnect, so the kernel) blocked for over 80 s
 * with a 3 s timeout. The deadline now covers the whole handshake, TLS included.
 */
@Timeout(120)
class ConnectDeadlineTest {

    private static final int TIMEOUT = 1_500;

    @Test
    void aServerDrippingItsAnswerCannotStretchTheConnectTimeout() throws Exception {
        try (ServerSocket listening = new ServerSocket(0)) {
            Thread dripper = new Thread(() -> {
                try (Socket s = listening.accept()) {
                    String key = requestKey(s.getInputStream());
                    OutputStream out = s.getOutputStream();
                    for (byte b : RawServer.goodResponse(key).getBytes(StandardCharsets.ISO_8859_1)) {
                        out.write(b);
                        out.flush();
                        Thread.sleep(200);
                    }
                    Thread.sleep(60_000);
                } catch (Exception e) {
                    // the client gave up
                }
            });
            dripper.setDaemon(true);
            dripper.start();
            assertGivesUpInTime(URI.create("ws://127.0.0.1:" + listening.getLocalPort() + "/"), new ClientConfig());
        }
    }

    @Test
    void aTlsHandshakeDrippedAByteAtATimeCannotStretchItEither() throws Exception {
        TestTls tls = TestTls.get();
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).tls(tls.server), new EchoListener()).start();
        try (ServerSocket proxy = new ServerSocket(0)) {
            Thread relay = new Thread(() -> dripProxy(proxy, server.port()));
            relay.setDaemon(true);
            relay.start();
            assertGivesUpInTime(URI.create("wss://localhost:" + proxy.getLocalPort() + "/"), new ClientConfig().tls(tls.client));
        } finally {
            server.stop();
        }
    }

    private static void assertGivesUpInTime(URI uri, ClientConfig config) {
        long start = System.nanoTime();
        assertThrows(IOException.class, () -> WebSocketClient.connect(uri, new RecordingClientListener(), config.connectTimeoutMillis(TIMEOUT)));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(seconds < 4, "connect gave up after " + seconds + " s with a timeout of " + TIMEOUT + " ms");
    }

    /** Relays one connection to the server, passing the server's bytes on one every 50 ms. */
    private static void dripProxy(ServerSocket proxy, int serverPort) {
        try (Socket client = proxy.accept(); Socket upstream = new Socket("127.0.0.1", serverPort)) {
            Thread up = new Thread(() -> {
                try {
                    client.getInputStream().transferTo(upstream.getOutputStream());
                } catch (IOException e) {
                    // one side closed
                }
            });
            up.setDaemon(true);
            up.start();
            InputStream fromServer = upstream.getInputStream();
            OutputStream toClient = client.getOutputStream();
            int b;
            while ((b = fromServer.read()) >= 0) {
                toClient.write(b);
                toClient.flush();
                Thread.sleep(50);
            }
        } catch (Exception e) {
            // the client gave up
        }
    }

    private static String requestKey(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed");
            }
            head.append((char) b);
        }
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase().startsWith("sec-websocket-key:")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "";
    }
}
