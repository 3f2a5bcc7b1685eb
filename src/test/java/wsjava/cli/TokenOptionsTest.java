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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.testing.RawClient;

/**
 * Issue 20, item 12: {@code --token} shows in {@code ps}, so a token can come from a file or from
 * WSJAVA_TOKEN instead; a token too short to resist guessing is refused; and {@code --require-token}
 * makes one even on loopback.
 */
@Timeout(60)
class TokenOptionsTest {

    private static final String TOKEN = "a-token-of-twenty-four-c";

    @Test
    void aTokenFromAFileOrTheEnvironmentIsRequiredOfClients() throws Exception {
        Path file = Files.createTempFile("wsjava-token", ".txt");
        Files.writeString(file, TOKEN + "\n");
        try {
            checkRequires(serve(Map.of(), "--token-file", file.toString()), TOKEN);
            checkRequires(serve(Map.of("WSJAVA_TOKEN", TOKEN)), TOKEN);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void aShortTokenIsRefused() throws Exception {
        Process p = serve(Map.of(), "--token", "short");
        boolean exited = p.waitFor(20, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertTrue(exited, "the server started with a 5-character token");
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.exitValue(), err);
        assertTrue(err.contains("at least 16 characters"), err);
    }

    @Test
    void requireTokenMakesOneOnLoopback() throws Exception {
        Process p = serve(Map.of(), "--require-token");
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            int port = port(out.readLine());
            Matcher token = Pattern.compile("access token: (\\S+)").matcher(String.valueOf(out.readLine()));
            assertTrue(token.find());
            try (RawClient c = new RawClient(port)) {
                assertEquals(401, c.handshake("/", ""));
            }
            try (RawClient c = new RawClient(port)) {
                assertEquals(101, c.handshake("/?token=" + token.group(1), ""));
            }
        } finally {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void checkRequires(Process p, String token) throws Exception {
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            int port = port(out.readLine());
            try (RawClient c = new RawClient(port)) {
                assertEquals(401, c.handshake("/", ""));
            }
            try (RawClient c = new RawClient(port)) {
                assertEquals(101, c.handshake("/?token=" + token, ""));
            }
        } finally {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static int port(String readyLine) {
        Matcher m = Pattern.compile("listening on ws://127\\.0\\.0\\.1:(\\d+)/").matcher(String.valueOf(readyLine));
        assertTrue(m.matches(), "ready line: " + readyLine);
        return Integer.parseInt(m.group(1));
    }

    private static Process serve(Map<String, String> env, String... extra) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "wsjava.cli.Main", "serve", "--port", "0"));
        command.addAll(List.of(extra));
        ProcessBuilder b = new ProcessBuilder(command);
        b.environment().remove("WSJAVA_TOKEN");
        b.environment().putAll(env);
        return b.start();
    }
}
