package wsjava.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import wsjava.bench.peers.NettyTransport;

/**
 * Each benchmark harness end to end with tiny sizes, so none of them rots. Numbers are not
 * checked (they mean nothing at this size); outputs, echoes and the files written are.
 */
@Tag("harness")      // a harness's smoke run: ./wsjava test --all, as CI runs it
class HarnessSmokeTest {

    private static List<String> csvRows(Path file) throws Exception {
        assertTrue(Files.exists(file), file + " was not written");
        List<String> lines = Files.readAllLines(file);
        return lines.subList(1, lines.size());
    }

    @Test
    void directMaskJmhHarness(@TempDir Path out) throws Exception {
        DirectMaskBench.run(List.of("--smoke", "--out", out.toString()));
        assertEquals(DirectMaskBench.VARIANTS.size() * 2, csvRows(out.resolve("mask-direct.csv")).size());
        assertTrue(Files.size(out.resolve("mask-direct.png")) > 1000);
    }

    @Test
    void maskJmhHarness(@TempDir Path out) throws Exception {
        MaskBench.run(List.of("--smoke", "--out", out.toString()));
        assertEquals(MaskBench.VARIANTS.size() * 2, csvRows(out.resolve("mask-jmh.csv")).size());
        assertTrue(Files.size(out.resolve("mask-jmh.png")) > 1000);
    }

    /** The work directories of the languages harness and of Python's speedups build in it, by name. */
    private static Set<String> languagesWorkDirs() throws Exception {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("wsjava-languages") || n.startsWith("wsjava-speedups"))
                    .collect(Collectors.toCollection(HashSet::new));
        }
    }

    @Test
    void languagesHarnessChecksEveryOutput(@TempDir Path out) throws Exception {
        Set<String> before = languagesWorkDirs();
        LanguagesBench.run(List.of("--smoke", "--out", out.toString()));   // throws if any output differs
        Set<String> left = languagesWorkDirs();
        left.removeAll(before);
        assertEquals(Set.of(), left, "what the run left in the temporary directory");
        List<String> rows = csvRows(out.resolve("languages.csv"));
        assertTrue(rows.stream().anyMatch(r -> r.startsWith("c-mask7-style") && r.endsWith("identical")), String.join("\n", rows));
        List<String> missing = rows.stream().filter(r -> r.contains("did not run")).collect(Collectors.toList());
        if (!missing.isEmpty()) {
            String names = missing.stream().map(r -> r.split(",")[0]).collect(Collectors.joining(", "));
            if ("1".equals(System.getenv("WSJAVA_REQUIRE_ALL_TOOLS"))) {
                fail("implementations that did not run: " + String.join("; ", missing));
            }
            Assumptions.abort("skipped: " + names + " could not run here (" + missing.get(0) + ")");
        }
        assertEquals(9, rows.size(), "two Java kernels and seven other implementations");
    }

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void echoHarnessDrivesEveryServer(@TempDir Path out) throws Exception {
        EchoBench.run(List.of("--smoke", "--idle", "50", "--out", out.toString()));
        List<String> rows = csvRows(out.resolve("echo.csv"));
        List<String> servers = rows.stream().map(r -> r.split(",")[0]).distinct().collect(Collectors.toList());
        assertEquals(servers.size() * 2, rows.size(), "two connection counts per server:\n" + String.join("\n", rows));
        // WSJava must echo in every cell. A peer server's own stall is reported in the note column
        // (Java-WebSocket now and then leaves a connection unanswered); each peer must still echo somewhere.
        for (String row : rows) {
            if (row.startsWith("WSJava,")) {
                assertFalse(row.split(",")[3].equals("0"), "no echoes measured: " + row);
            }
        }
        List<String> expected = new ArrayList<>(List.of(EchoPeers.NIO_FLOOR));
        if (FfmFloorPeer.jdk() != null) {
            expected.add(FfmFloorPeer.name(FfmFloorPeer.NAME, FfmFloorPeer.jdk()));
            if (NettyTransport.ioUringUnavailable() == null) {
                expected.add(FfmFloorPeer.name(FfmFloorPeer.URING, FfmFloorPeer.jdk()));
            }
        }
        EchoBench.PEERS.forEach(p -> expected.add(p.name));
        boolean built = Files.exists(out.resolve("native/wsecho"));      // gcc: the C client and the floor
        if (built) {
            expected.add(0, FloorPeer.NAME);
        }
        if (NettyTransport.ioUringUnavailable() == null) {
            expected.add(EchoPeers.NETTY_IO_URING);
        }
        assertEquals(expected, servers);
        for (String name : expected) {
            assertTrue(rows.stream().anyMatch(r -> r.startsWith(name + ",") && !r.split(",")[3].equals("0")),
                    name + " echoed nothing in any cell:\n" + String.join("\n", rows));
        }
        List<String> extras = csvRows(out.resolve("echo-extras.csv"));
        assertEquals(expected.size(), extras.size());
        for (String row : extras) {
            assertEquals("50", row.split(",")[2], "idle connections held: " + row);
        }
        assertTrue(Files.size(out.resolve("echo-64B.png")) > 1000, "one JFreeChart chart per message size");
        if (built) {       // the floor row, the head-to-head and every cost as a multiple of the floor's need gcc
            for (String row : rows) {
                String[] cells = row.split(",");
                if (cells[3].equals("0")) {
                    continue;      // a cell that echoed nothing in its short window has no cost to compare (each server must echo in some cell, above)
                }
                assertTrue(cells[7].matches("\\d+\\.\\d\\dx"), "µs/msg x floor: " + row);
                assertFalse(row.contains("echoes differed"), "every echo must match: " + row);
                if (row.startsWith(FloorPeer.NAME + ",")) {
                    assertEquals("1.00x", cells[7], row);
                }
            }
            List<String> h2h = csvRows(out.resolve("echo-head-to-head.csv"));
            assertTrue(h2h.stream().anyMatch(r -> r.startsWith("64B,floor,") && !r.split(",")[2].equals("0") && r.split(",")[5].equals("1.00x")),
                    String.join("\n", h2h));
            assertTrue(h2h.stream().anyMatch(r -> r.startsWith("64B,WSJava,") && !r.split(",")[2].equals("0")
                    && r.split(",")[5].matches("\\d+\\.\\d\\dx")), String.join("\n", h2h));
            assertTrue(h2h.stream().anyMatch(r -> r.startsWith("64B,Netty,")), String.join("\n", h2h));
            assertTrue(h2h.stream().anyMatch(r -> r.startsWith("64B,NioFloor,") && !r.split(",")[2].equals("0")), String.join("\n", h2h));
            if (NettyTransport.ioUringUnavailable() == null) {
                assertTrue(h2h.stream().anyMatch(r -> r.startsWith("64B,Netty io_uring,") && !r.split(",")[2].equals("0")), String.join("\n", h2h));
            }
            if (NewerJdkPeer.newest() != null) {      // WSJava again on the newest JDK here (Temurin 25 beside 17 on ours)
                assertTrue(h2h.stream().anyMatch(r -> r.startsWith("64B,WSJava (JDK ") && !r.split(",")[2].equals("0")), String.join("\n", h2h));
                if (NewerJdkPeer.feature(NewerJdkPeer.newest()) >= 22) {     // and on its FFM transport (the row ends the run if it fell back)
                    assertTrue(h2h.stream().anyMatch(r -> r.startsWith("64B,WSJava FFM (JDK ") && !r.split(",")[2].equals("0")), String.join("\n", h2h));
                }
            }
            assertTrue(Files.size(out.resolve("echo-cost-over-floor.png")) > 1000, "the chart of costs over the floor's");
        }
    }
}
