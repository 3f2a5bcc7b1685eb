package wsjava.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.server.ServerConfig;
import wsjava.options.ServerOptions;
import wsjava.options.TlsOptions;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;

/** {@code ./wsjava connect}: lines in, messages out, against the real server; headers, subprotocol, deflate, pinning. */
@Tag("serial")      // a 4 s bound on a run with a 1 s wait: run alone, not beside another test JVM
@Timeout(60)
class ConnectCommandTest {

    /** Says what the handshake carried, then echoes. */
    private static final WebSocketListener TELLS_AND_ECHOES = new WebSocketListener() {
        @Override
        public void onOpen(WebSocketConnection c) {
            c.sendText("header=" + c.header("X-Greeting") + " subprotocol=" + c.subprotocol() + " deflate=" + (c.extensions() != null));
        }

        @Override
        public void onText(WebSocketConnection c, String text) {
            c.sendText(text);
        }
    };

    private static final class Outcome {
        int exitCode;
        String out;
        String err;
    }

    private static Outcome connect(String input, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Outcome o = new Outcome();
        o.exitCode = ConnectCommand.run(List.of(args), new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        o.out = out.toString(StandardCharsets.UTF_8);
        o.err = err.toString(StandardCharsets.UTF_8);
        return o;
    }

    @Test
    void sendsEachLinePrintsEachReplyAndExitsAfterTheCloseHandshake() throws Exception {
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).addSubprotocol("chat"), TELLS_AND_ECHOES).start()) {
            long started = System.nanoTime();
            Outcome o = connect("one\ntwo words\n\nthree\n", "--pipe", "--header", "X-Greeting: hello there", "--subprotocol", "chat",
                    "--no-deflate", server.url());
            assertEquals(0, o.exitCode, o.err);
            assertEquals("header=hello there subprotocol=chat deflate=false\none\ntwo words\n\nthree\n", o.out);
            assertEquals("", o.err);
            // The wait for the last replies, then the close handshake: not the 5 s close timeout on top.
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(millis < ConnectCommand.DEFAULT_WAIT_MILLIS + 3_000, "no close timeout waited: " + millis + " ms");
            assertTrue(connect("x\n", "--pipe", server.url()).out.contains("deflate=true"), "deflate offered by default");
        }
    }

    @Test
    void aPinnedSelfSignedCertificateIsTrustedAndAnotherIsNot() throws Exception {
        ServerConfig config = new ServerConfig().port(0);
        TlsOptions tls = ServerOptions.applyAll(config, List.of("tls-self-signed"), java.util.Arrays.asList((String) null));
        try (WebSocketServer server = new WebSocketServer(config, TELLS_AND_ECHOES).start()) {
            Outcome pinned = connect("secure\n", "--pin", tls.selfSignedFingerprint(), server.url());
            assertEquals(0, pinned.exitCode, pinned.err);
            assertTrue(pinned.out.endsWith("secure\n"), pinned.out);
            Outcome other = connect("secure\n", "--pin", "00".repeat(32), server.url());
            assertEquals(1, other.exitCode);
            assertTrue(other.err.startsWith("connect: " + server.url() + ": "), other.err);
        }
    }

    @Test
    void badOptionsAndUnreachableServersSaySo() throws Exception {
        Outcome typo = connect("", "--hedaer", "a:b", "ws://127.0.0.1:1/");
        assertEquals(2, typo.exitCode);
        assertTrue(typo.err.startsWith("connect: unknown option --hedaer (did you mean --header?)"), typo.err);
        Outcome refused = connect("", "ws://127.0.0.1:1/");
        assertEquals(1, refused.exitCode);
        assertTrue(refused.err.startsWith("connect: ws://127.0.0.1:1/: "), refused.err);
    }

    /** The real commands in their own JVMs: ./wsjava serve, and ./wsjava connect fed by a pipe. */
    @Test
    void theCommandInItsOwnJvmAgainstServe() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process serve = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "wsjava.cli.Main", "serve", "--port", "0")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String ready = new java.io.BufferedReader(new java.io.InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertTrue(ready != null && ready.startsWith("listening on "), ready);
            List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"), "wsjava.cli.Main", "connect",
                    ready.substring("listening on ".length())));
            Process client = new ProcessBuilder(command).start();
            client.getOutputStream().write("héllo\nworld\n".getBytes(StandardCharsets.UTF_8));
            client.getOutputStream().close();
            String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(client.waitFor(20, TimeUnit.SECONDS));
            assertEquals(0, client.exitValue(), new String(client.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            assertEquals("héllo\nworld\n", out);
        } finally {
            serve.destroyForcibly();
        }
    }
}
