package wsjava.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import wsjava.server.Compression;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;
import wsjava.testing.ExternalTools;

/**
 * Headless Chromium loads the demo page with ?selftest=1. The page echoes text and binary from
 * 0 B to 16 MiB and a burst of 200, checks every echo, and reports to the server in one text
 * message, which this test reads. Chromium offers permessage-deflate on every connection: with
 * compression on, the page's report names the agreed extension and fewer bytes arrive than the
 * messages hold (its WL-expression text compresses well); with it off, neither. The third run
 * loads the page over https:// and echoes over wss:// (with compression).
 */
class ChromiumDemoPageTest {

    /** What the page's self-test sends: 7 texts, 9 binaries, 200 burst messages. */
    private static final int EXPECTED_ECHOES = 7 + 9 + 200;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"deflate", "plain", "tls"})
    void demoPageSelfTestPassesInChromium(String mode, @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path profile) throws Exception {
        boolean compression = !mode.equals("plain");
        boolean tls = mode.equals("tls");
        ExternalTools.require(ExternalTools.onPath("chromium"), "chromium (Debian package)");
        CompletableFuture<String> report = new CompletableFuture<>();
        AtomicLong messageBytes = new AtomicLong();
        WebSocketListener echoAndCapture = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection c, String text) {
                if (text.startsWith("SELFTEST ")) {
                    report.complete(text.substring(9));
                } else {
                    messageBytes.addAndGet(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
                    c.sendText(text);
                }
            }

            @Override
            public void onBinary(WebSocketConnection c, byte[] data) {
                messageBytes.addAndGet(data.length);
                c.sendBinary(data);
            }
        };
        ServerConfig config = new ServerConfig().port(0).compression(compression ? Compression.DEFAULT : Compression.OFF);
        if (tls) {
            config.tls(wsjava.testing.TestTls.get().server);     // the page over https://, the socket over wss://
        }
        WebSocketServer server = new WebSocketServer(config, echoAndCapture).start();
        Process chromium = ChromiumProcess.start(profile, List.of("--disable-quic",
                "--ignore-certificate-errors",      // tests only: the test certificate is not in Chromium's store
                (tls ? "https://localhost:" : "http://127.0.0.1:") + server.port() + "/?selftest=1"));
        try {
            String json = report.get(120, TimeUnit.SECONDS);
            System.out.println("chromium demo page self-test: " + json);
            assertNotNull(json);
            assertEquals(EXPECTED_ECHOES, number(json, "total"), json);
            assertEquals(0, number(json, "failed"), json);
            assertTrue(json.contains("Chrome"), "the report comes from Chromium: " + json);
            double wireRatio = (double) server.stats().bytesIn() / messageBytes.get();
            System.out.printf("chromium, %s: %d message bytes arrived as %d bytes on the wire (%.3f)%n",
                    mode, messageBytes.get(), server.stats().bytesIn(), wireRatio);
            if (compression) {
                assertTrue(json.contains("\"extensions\":\"permessage-deflate"), "deflate agreed: " + json);
                assertTrue(wireRatio < 1, "compressed messages take fewer bytes than they hold: " + wireRatio);
            } else {
                assertTrue(json.contains("\"extensions\":\"\""), "no extension agreed: " + json);
                assertTrue(wireRatio > 1, "uncompressed messages take more bytes than they hold: " + wireRatio);
            }
        } finally {
            ChromiumProcess.stop(chromium);
            server.stop();
        }
    }

    private static int number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\\d+)").matcher(json);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }
}
