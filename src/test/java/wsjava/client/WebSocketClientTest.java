package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.server.Compression;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;
import wsjava.testing.TestTls;

/** The client against WSJava's own server over ws:// and wss://, with and without deflate. */
@Timeout(120)
class WebSocketClientTest {

    private static ServerConfig serverConfig(String mode) throws Exception {
        ServerConfig config = new ServerConfig().port(0).outboundFragmentSize(64 * 1024);   // echoes of large messages come fragmented
        if (mode.contains("tls")) {
            config.tls(TestTls.get().server);
        }
        return config;
    }

    private static URI url(WebSocketServer server, String mode) {
        return URI.create((mode.contains("tls") ? "wss://localhost:" : "ws://127.0.0.1:") + server.port() + "/echo?x=1");
    }

    private static ClientConfig clientConfig(String mode) throws Exception {
        ClientConfig config = new ClientConfig().compression(mode.contains("deflate"));
        if (mode.contains("tls")) {
            config.tls(TestTls.get().client);
        }
        return config;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"plain", "deflate", "tls", "tls+deflate"})
    void echoesTextAndBinaryFrom0BTo16MiB(String mode) throws Exception {
        try (WebSocketServer server = new WebSocketServer(serverConfig(mode), new EchoListener()).start()) {
            RecordingClientListener heard = new RecordingClientListener();
            WebSocketConnection c = WebSocketClient.connect(url(server, mode), heard, clientConfig(mode));
            assertEquals(mode.contains("deflate") ? "permessage-deflate" : null, c.extensions());
            assertEquals("/echo", c.path());
            assertEquals("x=1", c.query());
            Random random = new Random(3);
            for (int size : new int[] {0, 1, 125, 126, 65535, 65536, 1 << 20, 16 << 20}) {
                StringBuilder text = new StringBuilder();
                while (text.length() < size) {
                    text.append("Plot[Sin[x], {x, 0, ").append(text.length()).append("}]; ");
                }
                c.sendText(text.substring(0, size));
                assertEquals(text.substring(0, size), heard.next());
                byte[] data = new byte[size];
                random.nextBytes(data);
                c.sendBinaryAsync(data).get(20, TimeUnit.SECONDS);
                assertArrayEquals(data, (byte[]) heard.next());
            }
            c.ping(new byte[] {7});
            assertArrayEquals(new byte[] {7}, heard.pongs.poll(10, TimeUnit.SECONDS));
            c.close(1000, "done");
            assertEquals(1000, heard.awaitClose());
            assertTrue(heard.errors.isEmpty(), String.valueOf(heard.errors.peek()));
        }
    }

    @Test
    void theServerClosingIsHeardWithItsCode() throws Exception {
        WebSocketListener closer = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                connection.close(4000, "go away: " + text);
            }
        };
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), closer).start()) {
            RecordingClientListener heard = new RecordingClientListener();
            WebSocketConnection c = WebSocketClient.connect(url(server, "plain"), heard, new ClientConfig());
            c.sendText("now");
            assertEquals(4000, heard.awaitClose());
            assertEquals("go away: now", heard.closeReason);
            assertTrue(!c.isOpen());
            assertEquals(false, c.sendText("too late"));
        }
    }

    @Test
    void aPinnedCertificateIsTrustedAloneAndAnotherIsRefused() throws Exception {
        TestTls tls = TestTls.get();
        try (WebSocketServer server = new WebSocketServer(serverConfig("tls"), new EchoListener()).start()) {
            RecordingClientListener heard = new RecordingClientListener();
            WebSocketConnection c = WebSocketClient.connect(URI.create("wss://127.0.0.1:" + server.port() + "/"), heard,
                    new ClientConfig().pinCertificate(tls.certificate.sha256Fingerprint()));
            c.sendText("pinned");
            assertEquals("pinned", heard.next());
            c.close(1000, "");
            IOException wrong = assertThrows(IOException.class, () -> WebSocketClient.connect(URI.create("wss://127.0.0.1:" + server.port() + "/"),
                    new RecordingClientListener(), new ClientConfig().pinCertificate("00".repeat(32))));
            assertTrue(String.valueOf(wrong.getMessage()).contains("pinned") || String.valueOf(wrong.getCause()).contains("pinned"), wrong.toString());
            assertThrows(IOException.class, () -> WebSocketClient.connect(URI.create("wss://localhost:" + server.port() + "/"),
                    new RecordingClientListener(), new ClientConfig()), "the system trust store does not know the test certificate");
        }
    }

    @Test
    void aServerThatNeverAnswersTimesOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            long t0 = System.nanoTime();
            IOException e = assertThrows(IOException.class, () -> WebSocketClient.connect(URI.create("ws://127.0.0.1:" + silent.getLocalPort() + "/"),
                    new RecordingClientListener(), new ClientConfig().connectTimeoutMillis(500)));
            long millis = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(millis >= 400 && millis < 5_000, "timed out after " + millis + " ms: " + e);
        }
    }
}
