package wsjava.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
            "messages=(\\d+) seconds=([0-9.]+) mismatches=(\\d+) cpu_user=([0-9.]+) cpu_sys=([0-9.]+)(?: server_cpu=(-?[0-9.]+))?");

    /**
     * One run: messages per second, mismatched echoes, the client's CPU as a share of one core, and
     * (when the server's pid was given) the server's CPU seconds over exactly the counted window
     * with the messages counted in it; NaN without a pid.
     */
    public static final class Result {
        public final double messagesPerSecond;
        public final long mismatches;
        public final double cpuShare;
        public final long messages;
        public final double seconds;
        public final double serverCpuSeconds;

        Result(long messages, double seconds, long mismatches, double cpuShare, double serverCpuSeconds) {
            this.messages = messages;
            this.seconds = seconds;
            this.messagesPerSecond = messages / seconds;
            this.mismatches = mismatches;
            this.cpuShare = cpuShare;
            this.serverCpuSeconds = serverCpuSeconds;
        }

        /** The server's CPU time per echoed message, in microseconds (NaN without a pid). */
        public double serverMicrosPerMessage() {
            return messages == 0 ? Double.NaN : serverCpuSeconds * 1e6 / messages;
        }

        /** The server's CPU over the window, as a share of one core (NaN without a pid). */
        public double serverCpuShare() {
            return serverCpuSeconds / seconds;
        }
    }

    private final Path binary;

    private CLoadClient(Path binary) {
        this.binary = binary;
    }

    /** Builds the client into {@code dir}; null (with the reason printed) when there is no gcc or no source. */
    public static CLoadClient build(Path dir) throws IOException, InterruptedException {
        Path binary = NativeBuild.gcc("wsecho", "C load client", dir, "-O2");
        return binary == null ? null : new CLoadClient(binary);
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
        return run(port, connections, size, warmupSeconds, measureSeconds, 0);
    }

    /** As {@link #run(int, int, int, double, double)}, also reading the server's CPU (pid {@code serverPid} when positive) over the window. */
    public Result run(int port, int connections, int size, double warmupSeconds, double measureSeconds, long serverPid)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "127.0.0.1", Integer.toString(port), Integer.toString(connections),
                Integer.toString(size), Double.toString(warmupSeconds), Double.toString(measureSeconds)));
        if (serverPid > 0) {
            command.add(Long.toString(serverPid));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
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
        double serverCpu = m.group(6) == null ? Double.NaN : Double.parseDouble(m.group(6));
        return new Result(Long.parseLong(m.group(1)), seconds, Long.parseLong(m.group(3)),
                (Double.parseDouble(m.group(4)) + Double.parseDouble(m.group(5))) / seconds, serverCpu);
    }

}
