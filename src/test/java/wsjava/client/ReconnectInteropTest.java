package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import wsjava.testing.ExternalTools;

/**
 * The reconnecting client against real servers, Python `websockets` and Node `ws` echo servers
 * that the test kills (the client sees TCP drop: 1006) and starts again on the same port.
 */
@Timeout(120)
class ReconnectInteropTest {

    private static List<String> command(String peer, int port) {
        List<String> c = new ArrayList<>(ExternalTools.peerScript(peer, "echo_server"));
        c.addAll(List.of("--port", Integer.toString(port)));
        return c;
    }

    /** Starts the peer's echo server (port 0: any); returns it once it says where it listens. */
    private static Process start(String peer, int port, int[] listening) throws Exception {
        Process server = new ProcessBuilder(command(peer, port)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertTrue(line != null && line.startsWith("listening "), "server said: " + line);
        listening[0] = Integer.parseInt(line.substring(10).trim());
        return server;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"python", "node"})
    void reconnectsToARealServerStartedAgainOnItsPort(String peer) throws Exception {
        ExternalTools.requirePeer(peer);
        int[] port = new int[1];
        Process server = start(peer, 0, port);
        ReconnectEvents heard = new ReconnectEvents();
        ReconnectingClient client = ReconnectingClient.connect(URI.create("ws://127.0.0.1:" + port[0] + "/"), heard, new ClientConfig(),
                new ReconnectPolicy().initialDelayMillis(50).maxDelayMillis(200).onEveryOpen(c -> c.sendText("subscribe")));
        try {
            assertEquals("open", heard.next(5));
            assertEquals("subscribe", heard.texts.poll(10, TimeUnit.SECONDS), "the hook's message, echoed");
            server.destroyForcibly();
            assertTrue(server.waitFor(10, TimeUnit.SECONDS));
            assertTrue(heard.next(10).startsWith("reconnecting 1 "), "killed: the client reconnects");
            assertFalse(client.sendText("lost"), "refused while the server is down");

            server = start(peer, port[0], port);
            assertEquals("reopened", heard.nextBesidesReconnecting(20));
            assertEquals("subscribe", heard.texts.poll(10, TimeUnit.SECONDS), "the hook ran again on the new connection");
            for (int i = 0; i < 500; i++) {
                assertTrue(client.sendText("m" + i));
            }
            for (int i = 0; i < 500; i++) {
                assertEquals("m" + i, heard.texts.poll(10, TimeUnit.SECONDS), "every message after the reopen, in order");
            }
            client.close(1000, "done");
            String closed = heard.nextBesidesReconnecting(10);
            assertTrue(closed.startsWith("close 1000"), "the application's close ends it: " + closed);
        } finally {
            server.destroyForcibly();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
