package wsjava.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server in a JVM of its own, for tests whose point is that JVM's limits (a small heap, little
 * direct memory): started with this test's class path and the given JVM options and main class,
 * ready once it prints {@code listening on ws://127.0.0.1:PORT/}. Its stderr goes to a log file the
 * test can read.
 */
public final class ChildJvm implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("listening on wss?://127\\.0\\.0\\.1:(\\d+)/");

    private final Process process;
    public final int port;
    public final Path log;

    private ChildJvm(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    public static ChildJvm start(List<String> jvmOptions, String mainClass, String... args) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        Path log = Files.createTempFile("wsjava-child", ".log");
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        Matcher m = LISTENING.matcher(String.valueOf(line));
        if (!m.find()) {
            p.destroyForcibly();
            throw new IOException("the child server did not start (" + line + "); its log: " + Files.readString(log));
        }
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // keep the pipe from filling
                }
            } catch (IOException ignored) {
                // the child ended
            }
        });
        drain.setDaemon(true);
        drain.start();
        return new ChildJvm(p, Integer.parseInt(m.group(1)), log);
    }

    public boolean alive() {
        return process.isAlive();
    }

    public String logText() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        Files.deleteIfExists(log);
    }
}
