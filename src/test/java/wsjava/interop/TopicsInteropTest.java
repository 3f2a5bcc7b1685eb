package wsjava.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;
import wsjava.testing.ExternalTools;

/**
 * Topics with real clients: three connections of Python `websockets`, Node `ws` or headless
 * Chromium subscribe (one leaves a topic again), and each gets exactly its topics' publishes,
 * text beyond the BMP, binary and 100 KB messages included, in order and with their type. The
 * clients' own checks are in src/test/python/topics_client.py, src/test/node/topics_client.js and
 * src/test/browser/topics_client.html.
 */
@Timeout(180)
class TopicsInteropTest {

    static final String BIG_TEXT = "ListPlot[{1, 2, 3}]; ".repeat(5000).substring(0, 100_000);

    /** Subscribes on "sub T", leaves on "unsub T", counts "ready", and keeps a browser's "REPORT". */
    static final class TopicCommands implements WebSocketListener {
        final CountDownLatch ready = new CountDownLatch(3);
        final CompletableFuture<String> report = new CompletableFuture<>();

        @Override
        public void onText(WebSocketConnection c, String text) {
            if (text.startsWith("sub ")) {
                c.sendText((c.subscribe(text.substring(4)) ? "ok " : "refused ") + text);
            } else if (text.startsWith("unsub ")) {
                c.sendText((c.unsubscribe(text.substring(6)) ? "ok " : "refused ") + text);
            } else if (text.equals("ready")) {
                ready.countDown();
            } else if (text.startsWith("REPORT ")) {
                report.complete(text.substring(7));
            }
        }
    }

    /** What the test publishes once the three clients are ready: topic a's five messages and end marker, then b's. */
    static void publishTheSequence(WebSocketServer server) {
        byte[] bytes = new byte[256];
        for (int i = 0; i < 256; i++) {
            bytes[i] = (byte) i;
        }
        byte[] bigBinary = new byte[70_000];
        for (int i = 0; i < bigBinary.length; i++) {
            bigBinary[i] = (byte) (i % 251);
        }
        assertEquals(2, server.publish("a", "to a"));
        assertEquals(1, server.publish("b", "to b"), "only the third connection is still on b");
        assertEquals(2, server.publish("a", bytes));
        assertEquals(2, server.publish("a", "emoji \uD83D\uDE00 \u00e9"));
        assertEquals(2, server.publish("a", BIG_TEXT));
        assertEquals(2, server.publish("a", java.nio.ByteBuffer.wrap(bigBinary)));
        assertEquals(2, server.publish("a", "end a"));
        assertEquals(1, server.publish("b", "end b"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"python", "node"})
    void realClientsGetExactlyTheirTopics(String peer) throws Exception {
        ExternalTools.requirePeer(peer);
        TopicCommands commands = new TopicCommands();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), commands).start()) {
            List<String> command = new java.util.ArrayList<>(ExternalTools.peerScript(peer, "topics_client"));
            command.add(server.url());
            Path log = Files.createTempFile("wsjava-topics", ".log");
            Process client = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                assertTrue(commands.ready.await(60, TimeUnit.SECONDS), "the clients subscribed: " + Files.readString(log));
                assertEquals(3, server.subscriptionCount());
                publishTheSequence(server);
                assertTrue(client.waitFor(60, TimeUnit.SECONDS), "the clients finished: " + Files.readString(log));
                String output = Files.readString(log, StandardCharsets.UTF_8);
                System.out.print(output);
                assertEquals(0, client.exitValue(), output);
                assertTrue(output.contains("ok=3 bad=0"), output);
            } finally {
                client.destroyForcibly();
                Files.deleteIfExists(log);
            }
        }
    }

    /** The page is loaded from a file, so its Origin is "null": allowed here, in the test only. */
    @Test
    void chromiumGetsExactlyItsTopics(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path profile) throws Exception {
        ExternalTools.require(ExternalTools.onPath("chromium"), "chromium (Debian package)");
        TopicCommands commands = new TopicCommands();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).allowAnyOrigin(true), commands).start()) {
            String page = ExternalTools.PROJECT.resolve("src/test/browser/topics_client.html").toUri() + "?port=" + server.port();
            Process chromium = ChromiumProcess.start(profile, List.of(page));
            try {
                assertTrue(commands.ready.await(60, TimeUnit.SECONDS), "the page's three sockets subscribed");
                publishTheSequence(server);
                String report = commands.report.get(60, TimeUnit.SECONDS);
                System.out.println("chromium topics: " + report);
                assertTrue(report.contains("\"ok\":3,\"bad\":0"), report);
                assertTrue(report.contains("Chrome"), report);
            } finally {
                ChromiumProcess.stop(chromium);
            }
        }
    }
}
