package wsjava.conformance;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import wsjava.cli.EchoListener;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;
import wsjava.testing.RawClient;

/**
 * Runs every conformance case against a live echo server, grades it strictly (anything but OK
 * fails the case), and prints a per-case report with totals per group. {@link TlsConformanceTest}
 * runs the same cases over TLS.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConformanceTest {

    private WebSocketServer server;
    private final List<String> report = new ArrayList<>();
    private final Map<String, int[]> totals = new TreeMap<>();

    /** The echo server's settings: 1 MiB outbound frames, so that group 10 sees the server fragment its echoes. */
    ServerConfig config() throws Exception {
        return new ServerConfig().port(0).outboundFragmentSize(1 << 20);
    }

    String title() {
        return "WSJava conformance report (strict)";
    }

    @BeforeAll
    void startServer() throws Exception {
        server = new WebSocketServer(config(), new EchoListener()).start();
    }

    @AfterAll
    void stopAndReport() {
        server.stop();
        System.out.println();
        System.out.println("==== " + title() + " ====");
        report.forEach(System.out::println);
        int[] all = new int[Grade.values().length];
        for (Map.Entry<String, int[]> e : totals.entrySet()) {
            System.out.println(String.format(Locale.ROOT, "group %-2s %s", e.getKey(), counts(e.getValue())));
            for (int i = 0; i < all.length; i++) {
                all[i] += e.getValue()[i];
            }
        }
        System.out.println("total    " + counts(all));
    }

    private static String counts(int[] c) {
        return String.format(Locale.ROOT, "OK %d, NON-STRICT %d, WRONG CODE %d, FAILED %d", c[0], c[1], c[2], c[3]);
    }

    @TestFactory
    Stream<DynamicTest> conformance() {
        return ConformanceCases.all().stream().map(c -> DynamicTest.dynamicTest(c.id + " " + c.description, () -> run(c)));
    }

    private void run(ConformanceCase c) {
        long started = System.nanoTime();
        Grade grade = Grade.OK;
        String detail = "";
        try {
            if (c.portScript != null) {
                c.portScript.run(server.port());
            } else {
                try (RawClient client = RawClient.open(server.port())) {
                    c.script.run(new CaseRun(client));
                }
            }
        } catch (GradeException e) {
            grade = e.grade;
            detail = e.getMessage();
        } catch (Exception e) {
            grade = Grade.FAILED;
            detail = e.toString();
        }
        double millis = (System.nanoTime() - started) / 1e6;
        synchronized (report) {
            report.add(String.format(Locale.ROOT, "%-6s %-10s %8.1f ms  %s%s", c.id, grade.name().replace('_', '-'), millis,
                    c.description, detail.isEmpty() ? "" : "  [" + detail + "]"));
            totals.computeIfAbsent(c.group(), k -> new int[Grade.values().length])[grade.ordinal()]++;
        }
        if (grade != Grade.OK) {
            fail(grade + ": " + detail);
        }
    }
}
