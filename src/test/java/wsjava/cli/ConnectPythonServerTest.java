package wsjava.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import wsjava.testing.ExternalTools;

/**
 * {@code ./wsjava connect} in its own JVM, fed by a pipe, against a server that is not WSJava: the
 * Python {@code websockets} echo server (src/test/python/echo_server.py, deflate on by default).
 * Every line sent comes back as one message, printed as one line, in order; the command then exits 0.
 */
@Timeout(120)
class ConnectPythonServerTest {

    /** Lines a script might pipe in: an empty one, non-ASCII, a long one, and enough to need many reads. */
    private static List<String> lines() {
        List<String> lines = new ArrayList<>(List.of("hello", "", "héllo wörld \uD83D\uDE00", "ListPlot[{1, 2, 3}]; ".repeat(5000)));
        for (int i = 0; i < 200; i++) {
            lines.add("line " + i);
        }
        return lines;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--deflate", "--no-deflate"})
    void linesInMessagesOutAgainstPythonWebsockets(String deflate) throws Exception {
        ExternalTools.requirePeer("python");
        Process server = new ProcessBuilder(ExternalTools.peerScript("python", "echo_server")).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Path in = Files.createTempFile("wsjava-connect-in", ".txt");
        Path err = Files.createTempFile("wsjava-connect-err", ".txt");
        try {
            String ready = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertTrue(ready != null && ready.startsWith("listening "), "the Python server said: " + ready);
            String url = "ws://127.0.0.1:" + ready.substring("listening ".length()).trim() + "/";
            List<String> lines = lines();
            Files.writeString(in, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
            Process client = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "wsjava.cli.Main", "connect", "--pipe", deflate, url)
                    .redirectInput(in.toFile()).redirectError(err.toFile()).start();
            String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(client.waitFor(60, TimeUnit.SECONDS), "connect exits once its input ended");
            String said = Files.readString(err, StandardCharsets.UTF_8);
            assertEquals(0, client.exitValue(), said);
            List<String> back = out.lines().collect(java.util.stream.Collectors.toList());
            assertEquals(lines.size(), back.size(), "lines back, of " + lines.size() + "; the last: " + (back.isEmpty() ? "none" : back.get(back.size() - 1)) + "; stderr: " + said);
            assertEquals(lines, back, "each line back once, in order");
            assertEquals("", said, "nothing on stderr in the pipe mode");
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
            Files.deleteIfExists(in);
            Files.deleteIfExists(err);
        }
    }
}
