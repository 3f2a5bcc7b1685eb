package wsjava.redis;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway {@code redis-server} (Debian's package) for tests and benchmarks: a free loopback
 * port, a temporary directory, no persistence. It can be stopped and started again on the same
 * port, and paused (SIGSTOP: connections stay open but nothing is answered) to play a stalled
 * Redis. Traffic never leaves 127.0.0.1.
 */
public final class LocalRedis implements AutoCloseable {

    private final int port;
    private final Path dir;
    private final List<String> extraArguments;
    private Process process;

    private LocalRedis(int port, Path dir, List<String> extraArguments) {
        this.port = port;
        this.dir = dir;
        this.extraArguments = extraArguments;
    }

    /** Whether {@code redis-server} is on PATH. */
    public static boolean available() {
        try {
            Process p = new ProcessBuilder("redis-server", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Starts one on a free port; throws when it does not answer PING within 10 s. */
    public static LocalRedis start() throws IOException, InterruptedException {
        return start(List.of());
    }

    /** Starts one with more {@code redis-server} arguments (users, TLS); PING on its plain port must still answer. */
    public static LocalRedis start(List<String> extraArguments) throws IOException, InterruptedException {
        LocalRedis redis = new LocalRedis(freePort(), Files.createTempDirectory("wsjava-redis"), extraArguments);
        redis.restart();
        return redis;
    }

    /** A loopback port free now. */
    public static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    /** Its temporary directory, for files its arguments name (certificates). */
    public Path dir() {
        return dir;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** Starts it (again) on its port, after {@link #stop()}. */
    public void restart() throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--protected-mode", "yes", "--loglevel", "warning"));
        command.addAll(extraArguments);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!answersPing()) {
            if (System.nanoTime() > deadline || !process.isAlive()) {
                throw new IOException("redis-server did not start on port " + port + ": " + Files.readString(dir.resolve("redis.log")));
            }
            Thread.sleep(20);
        }
    }

    private boolean answersPing() {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(1000);
            s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] answer = new byte[7];
            return s.getInputStream().readNBytes(answer, 0, 7) == 7 && new String(answer, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops it (SIGTERM, then SIGKILL after 10 s); its clients see their connections reset. */
    public void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** SIGSTOP: connections stay open, nothing is read or answered. */
    public void pause() throws IOException, InterruptedException {
        signal("-STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() throws IOException, InterruptedException {
        signal("-CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill " + signal + " " + process.pid() + " failed");
        }
    }

    @Override
    public void close() throws InterruptedException, IOException {
        if (process != null && process.isAlive()) {
            resume();      // a paused process would not hear SIGTERM
        }
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
