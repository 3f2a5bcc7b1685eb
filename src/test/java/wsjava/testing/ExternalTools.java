package wsjava.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds and runs the real clients the interop tests drive. A missing tool skips the test, by
 * name, unless WSJAVA_REQUIRE_ALL_TOOLS=1 (set by CI), where it fails instead.
 */
public final class ExternalTools {

    public static final Path PROJECT = Path.of(System.getProperty("user.dir"));
    public static final String SYSTEM_PYTHON = "/usr/bin/python3";

    private ExternalTools() {
    }

    public static void require(boolean present, String what) {
        if (present) {
            return;
        }
        if ("1".equals(System.getenv("WSJAVA_REQUIRE_ALL_TOOLS"))) {
            fail(what + " is missing, and WSJAVA_REQUIRE_ALL_TOOLS=1 forbids skipping");
        }
        Assumptions.abort("skipped: " + what + " is not installed (./wsjava test installs it where it can)");
    }

    public static boolean onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    public static boolean pythonWebsockets() {
        return Files.isExecutable(Path.of(SYSTEM_PYTHON)) && run(List.of(SYSTEM_PYTHON, "-c", "import websockets"), 30).exitCode == 0;
    }

    public static boolean nodeWs() {
        return onPath("node") && Files.isDirectory(PROJECT.resolve("src/test/node/node_modules/ws"));
    }

    /** Requires a peer's WebSocket library: "python" (websockets) or "node" (ws). */
    public static void requirePeer(String peer) {
        if (peer.equals("python")) {
            require(pythonWebsockets(), "python3-websockets");
        } else {
            require(nodeWs(), "node with the npm package ws (src/test/node)");
        }
    }

    /** The command that runs a peer's script: src/test/python/NAME.py or src/test/node/NAME.js. */
    public static List<String> peerScript(String peer, String name) {
        return peer.equals("python")
                ? List.of(SYSTEM_PYTHON, PROJECT.resolve("src/test/python/" + name + ".py").toString())
                : List.of("node", PROJECT.resolve("src/test/node/" + name + ".js").toString());
    }

    /** A finished process: exit code and everything it printed (stdout and stderr merged). */
    public static final class Result {
        public final int exitCode;
        public final String output;

        Result(int exitCode, String output) {
            this.exitCode = exitCode;
            this.output = output;
        }
    }

    /**
     * Starts an echo server, runs {@code command} with the server's URL appended, prints what it
     * said, and returns it; the client script exits 0 and prints "bad=0" when every echo matched.
     */
    public static Result runClientAgainstEchoServer(List<String> command) throws java.io.IOException {
        return runClientAgainstEchoServer(command, false);
    }

    /**
     * With {@code tls}, the server serves wss:// with the test certificate, the URL names localhost
     * (the name the certificate carries) and the client finds the certificate's PEM file in the
     * environment variable WSJAVA_TEST_CA.
     */
    public static Result runClientAgainstEchoServer(List<String> command, boolean tls) throws java.io.IOException {
        // The clients send 16 MiB messages of one character repeated, which inflate about 1,000 times: past
        // the default ratio cap (200), they would get 1009 (CompressedBudgetTest shows that). Here they test interop.
        wsjava.server.ServerConfig config = new wsjava.server.ServerConfig().port(0).maxInflationRatio(0);
        java.util.Map<String, String> env = new java.util.HashMap<>();
        if (tls) {
            try {
                config.tls(TestTls.get().server);
                env.put("WSJAVA_TEST_CA", TestTls.get().certificatePem.toString());
            } catch (Exception e) {
                throw new java.io.IOException("no test certificate", e);
            }
        }
        wsjava.server.WebSocketServer server = new wsjava.server.WebSocketServer(config, new wsjava.cli.EchoListener()).start();
        try {
            List<String> full = new java.util.ArrayList<>(command);
            full.add(tls ? "wss://localhost:" + server.port() + "/" : server.url());
            Result r = run(full, 180, env);
            System.out.print(r.output);
            return r;
        } finally {
            server.stop();
        }
    }

    public static Result run(List<String> command, int timeoutSeconds) {
        return run(command, timeoutSeconds, java.util.Collections.emptyMap());
    }

    public static Result run(List<String> command, int timeoutSeconds, java.util.Map<String, String> env) {
        try {
            Path log = Files.createTempFile("wsjava-tool", ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(env);
            Process p = builder.start();
            boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!done) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            Files.deleteIfExists(log);
            return new Result(done ? p.exitValue() : -1, done ? output : output + "\n(timed out after " + timeoutSeconds + " s)");
        } catch (IOException e) {
            return new Result(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }
}
