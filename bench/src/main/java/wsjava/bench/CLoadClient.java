package wsjava.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The C load client, {@code bench/c/wsecho.c} (epoll, one message in flight per connection,
 * pre-masked frames, every echo compared): built with gcc on first use, run as a child process,
 * which inherits the bench's pinning to core 1. It reports the CPU it used, so every run shows
 * whether the client or the server was the limit.
 */
public final class CLoadClient {

    private static final Pattern LINE = Pattern.compile(
            "messages=(\\d+) seconds=([0-9.]+) mismatches=(\\d+) cpu_user=([0-9.]+) cpu_sys=([0-9.]+)");

    /** One run: messages per second, mismatched echoes, the client's CPU as a share of one core. */
    public static final class Result {
        public final double messagesPerSecond;
        public final long mismatches;
        public final double cpuShare;

        Result(double messagesPerSecond, long mismatches, double cpuShare) {
            this.messagesPerSecond = messagesPerSecond;
            this.mismatches = mismatches;
            this.cpuShare = cpuShare;
        }
    }

    private final Path binary;

    private CLoadClient(Path binary) {
        this.binary = binary;
    }

    /** Builds the client into {@code dir}; null (with the reason printed) when there is no gcc or no source. */
    public static CLoadClient build(Path dir) throws IOException, InterruptedException {
        Path source = projectRoot().resolve("bench/c/wsecho.c");
        if (!Files.exists(source) || !EchoBench.onPath("gcc")) {
            System.out.println("C load client not built: " + (Files.exists(source) ? "no gcc on PATH" : "no " + source));
            return null;
        }
        Files.createDirectories(dir);
        Path binary = dir.resolve("wsecho");
        Process gcc = new ProcessBuilder("gcc", "-O2", "-o", binary.toString(), source.toString()).redirectErrorStream(true).start();
        String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (gcc.waitFor() != 0) {
            throw new IOException("gcc failed on " + source + ":\n" + output);
        }
        return new CLoadClient(binary);
    }

    /** The checkout: -Dwsjava.root (the launcher sets it), else the working directory or its parent (bench/ under mvn). */
    static Path projectRoot() {
        String root = System.getProperty("wsjava.root");
        if (root != null) {
            return Path.of(root);
        }
        Path here = Path.of("").toAbsolutePath();
        return Files.exists(here.resolve("bench/c/wsecho.c")) ? here : here.getParent();
    }

    public Result run(int port, int connections, int size, double warmupSeconds, double measureSeconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(binary.toString(), "127.0.0.1", Integer.toString(port), Integer.toString(connections),
                Integer.toString(size), Double.toString(warmupSeconds), Double.toString(measureSeconds)).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor((long) (warmupSeconds + measureSeconds) + 60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("the C client did not finish");
        }
        Matcher m = LINE.matcher(output);
        if (!m.find()) {
            throw new IOException("the C client failed: " + output.trim());
        }
        double seconds = Double.parseDouble(m.group(2));
        return new Result(Long.parseLong(m.group(1)) / seconds, Long.parseLong(m.group(3)),
                (Double.parseDouble(m.group(4)) + Double.parseDouble(m.group(5))) / seconds);
    }

}
