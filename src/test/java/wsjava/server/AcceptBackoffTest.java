package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.testing.RawClient;

/**
 * A server out of file descriptors: it must not spin on the pending connection it cannot accept,
 * must log that once, and must serve again when descriptors come back. Runs the real CLI server in
 * a child JVM with a low descriptor limit ({@code ulimit -n}).
 */
@Tag("serial")      // a share of a core, and running out of descriptors: run alone, not beside another test JVM
@Timeout(120)
class AcceptBackoffTest {

    private static final Pattern LISTENING = Pattern.compile("listening on ws://127\\.0\\.0\\.1:(\\d+)/");

    @Test
    void runningOutOfDescriptorsBacksOffLogsOnceAndRecovers() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path log = Files.createTempFile("wsjava-accept", ".log");
        // The transport this run tests (the build's second run is on FFM): the child serves on it.
        String transport = System.getProperty("wsjava.transport", "auto");
        ProcessBuilder builder = new ProcessBuilder("bash", "-c",
                "ulimit -n 120 && exec \"$0\" $2 -cp \"$1\" wsjava.cli.Main serve --port 0 --io-threads 1 --transport " + transport,
                java, System.getProperty("java.class.path"), transport.equals("ffm") ? "--enable-native-access=ALL-UNNAMED" : "");
        builder.redirectError(log.toFile());
        Process server = builder.start();
        List<Socket> flood = new ArrayList<>();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            Matcher m = LISTENING.matcher(String.valueOf(out.readLine()));
            assertTrue(m.find(), "the child server did not start; its log: " + Files.readString(log));
            int port = Integer.parseInt(m.group(1));
            assertTrue(!transport.equals("ffm") || Files.readString(log).contains("FFM transport"), "the child serves on FFM: " + Files.readString(log));
            try (RawClient warm = RawClient.open(port)) {      // load the classes a connection needs while files can be opened
                warm.send(warm.writer.frame(wsjava.protocol.OpCode.TEXT, true, new byte[] {'w'}, 0, 1));
                assertTrue(warm.readFrame(10_000) != null);
                Thread.sleep(300);                               // and those its timer pass needs
            }
            for (int i = 0; i < 200; i++) {       // more than its descriptor limit: the backlog holds the rest
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                flood.add(s);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.readString(log).contains("pausing accepts") && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(Files.readString(log).contains("pausing accepts"), "descriptors never ran out? log: " + Files.readString(log));
            double cpuShare = ioThreadCpuShareOver(server.pid(), 3_000);
            assertTrue(cpuShare < 0.30, "the I/O thread burns " + Math.round(cpuShare * 100) + "% of a core while it cannot accept");
            for (Socket s : flood) {
                s.close();
            }
            flood.clear();
            try (RawClient client = new RawClient(port)) {
                client.setTimeoutMillis(30_000);
                assertEquals(101, client.handshake("/", ""), "served again once descriptors came back");
            }
            String text = Files.readString(log);
            assertEquals(1, text.split("pausing accepts", -1).length - 1, "logged once, not per attempt:\n" + text);
        } finally {
            for (Socket s : flood) {
                s.close();
            }
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
            Files.deleteIfExists(log);
        }
    }

    /** CPU time the server's I/O thread used over {@code millis} of wall time, as a share of one core (from /proc). */
    private static double ioThreadCpuShareOver(long pid, long millis) throws Exception {
        long before = ioThreadTicks(pid);
        long t0 = System.nanoTime();
        Thread.sleep(millis);
        long ticks = ioThreadTicks(pid) - before;
        double wallSeconds = (System.nanoTime() - t0) / 1e9;
        return ticks / 100.0 / wallSeconds;       // USER_HZ is 100 on Linux
    }

    private static long ioThreadTicks(long pid) throws Exception {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                if (Files.readString(task.resolve("comm")).trim().equals("wsjava-io-0")) {
                    String stat = Files.readString(task.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);     // utime, stime
                }
            }
        }
        throw new AssertionError("no thread wsjava-io-0 in process " + pid);
    }
}
