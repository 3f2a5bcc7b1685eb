package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import wsjava.server.WebSocketConnection;
import wsjava.testing.ExternalTools;
import wsjava.testing.TestTls;

/** The client against real servers: Python `websockets` and Node `ws`, over ws:// and wss://, deflate on both sides. */
@Timeout(180)
class ClientInteropTest {

    @ParameterizedTest(name = "{0} over {1}")
    @CsvSource({"python, ws", "python, wss", "node, ws", "node, wss"})
    void echoesAgainstARealServer(String peer, String scheme) throws Exception {
        ExternalTools.requirePeer(peer);
        TestTls tls = TestTls.get();
        List<String> command = new ArrayList<>(ExternalTools.peerScript(peer, "echo_server"));
        if (scheme.equals("wss")) {
            command.addAll(List.of(tls.certificatePem.toString(), tls.keyPem.toString()));
        }
        Process server = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            String line = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertTrue(line != null && line.startsWith("listening "), "server said: " + line);
            URI uri = URI.create(scheme + "://localhost:" + line.substring(10).trim() + "/");
            RecordingClientListener heard = new RecordingClientListener();
            WebSocketConnection c = WebSocketClient.connect(uri, heard, new ClientConfig().tls(tls.client));
            assertTrue(String.valueOf(c.extensions()).startsWith("permessage-deflate"), "deflate agreed: " + c.extensions());
            Random random = new Random(5);
            for (int size : new int[] {0, 1, 126, 65536, 1 << 20, 8 << 20}) {
                StringBuilder text = new StringBuilder();
                while (text.length() < size) {
                    text.append("ListPlot[Table[Prime[n], {n, ").append(text.length()).append("}]]; ");
                }
                c.sendText(text.substring(0, size));
                assertEquals(text.substring(0, size), heard.next());
                byte[] data = new byte[size];
                random.nextBytes(data);
                c.sendBinary(data);
                assertArrayEquals(data, (byte[]) heard.next());
            }
            c.close(1000, "done");
            assertEquals(1000, heard.awaitClose());
            assertTrue(heard.errors.isEmpty(), String.valueOf(heard.errors.peek()));
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
