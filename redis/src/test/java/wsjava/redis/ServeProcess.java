package wsjava.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./wsjava serve} in its own JVM, started through the entry point the launcher uses
 * ({@code wsjava.cli.Main}) on a free port, with this module's classpath (so {@code --redis} finds
 * the Redis module). Its ready line gives its URL; the rest of its output is drained and kept.
 */
final class ServeProcess implements AutoCloseable {

    private final Process process;
    private final String url;
    private final StringBuffer output = new StringBuffer();

    private ServeProcess(Process process) throws IOException {
        this.process = process;
        BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String ready = lines.readLine();
        if (ready == null || !ready.startsWith("listening on ")) {
            process.destroyForcibly();
            throw new IOException("serve did not start, its first line: " + ready);
        }
        url = ready.substring("listening on ".length());
        Thread drain = new Thread(() -> {
            try {
                for (String line; (line = lines.readLine()) != null; ) {
                    output.append(line).append('\n');
                }
            } catch (IOException e) {
                output.append(e).append('\n');
            }
        }, "serve-output");
        drain.setDaemon(true);
        drain.start();
    }

    /** The process, not yet known to be serving (for options refused before serving). */
    static Process start(String... options) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "wsjava.cli.Main", "serve", "--port", "0"));
        command.addAll(List.of(options));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** A server that printed its ready line. */
    static ServeProcess serve(String... options) throws IOException {
        return new ServeProcess(start(options));
    }

    /** ws://127.0.0.1:PORT/ */
    String url() {
        return url;
    }

    /** What it printed after its ready line, so far. */
    String output() {
        return output.toString();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
