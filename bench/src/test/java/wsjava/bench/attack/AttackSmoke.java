package wsjava.bench.attack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attack suite at smoke size, in the build: every attack against a fresh server JVM under one
 * heap setting (a subclass each for -Xmx128m and the default heap, so that the two run side by side
 * in two test JVMs; each attack is mostly waiting), and every bound the README promises must hold
 * (the server alive and serving afterwards, its heap, a bystander's latency, the per-attack checks).
 * A bystander's p99 at smoke size is over a hundred round trips or fewer, nearly its worst one, and
 * this shared 2-core machine stalls now and then (compressed-cpu: 55 to 233 ms in nine CI runs, then
 * 1,076 ms once, with that code path unchanged): an attack whose only broken bound is that latency
 * runs once more, once the machine has a core to spare (two minutes of waiting at most, for all
 * the retries of a run: the other bench JVMs may keep both cores busy), and fails the test if it
 * breaks it again. A retry beside the other harnesses measures them, not the server. No other
 * bound gets a second run.
 * Without redis-server the Redis attack fails; here it is skipped, as the other tests that need it
 * are, unless WSJAVA_REQUIRE_ALL_TOOLS=1 (CI).
 */
@Tag("harness")      // a harness's smoke run: ./wsjava test --all, as CI runs it
@Timeout(600)
abstract class AttackSmoke {

    /** "compressed-cpu (default): bystander p99 1075.9 ms, over 1000.0 ms": attack, heap. */
    private static final Pattern LATENCY_ONLY = Pattern.compile("(\\S+) \\((\\S+)\\): bystander p99 .*");

    /** The server's heap setting: "128m", or "default" for the JVM's own. */
    abstract String heap();

    /** The server's transport: "nio", or "ffm" (on the newest JDK 22 or later). */
    abstract String transport();

    @Test
    void everyAttackStaysWithinItsBounds(@TempDir Path out) throws Exception {
        AttackBench.Outcome outcome = AttackBench.run(List.of("--smoke", "--heap", heap(), "--transport", transport(), "--out", out.toString()));
        List<String> failures = new ArrayList<>();
        int quietWaitLeft = 120;
        for (String failure : outcome.failures) {
            if (failure.contains(RedisPeer.NO_REDIS) && !"1".equals(System.getenv("WSJAVA_REQUIRE_ALL_TOOLS"))) {
                System.out.println("attack smoke: skipped: " + failure);
                continue;
            }
            Matcher latency = LATENCY_ONLY.matcher(failure);
            String attack = latency.matches() ? latency.group(1) : null;
            String heap = latency.matches() ? latency.group(2) : null;
            if (attack != null && outcome.failures.stream().filter(f -> f.startsWith(attack + " (" + heap + "):")).count() == 1) {
                long waitStart = System.nanoTime();
                double idle = QuietMachine.await(quietWaitLeft);      // two minutes in all, so the class stays within its timeout
                quietWaitLeft -= (int) Math.ceil((System.nanoTime() - waitStart) / 1e9);
                System.out.printf(Locale.ROOT, "attack smoke: %s; running %s (%s) once more, with %.0f%% of the machine idle%n",
                        failure, attack, heap, 100 * idle);
                AttackBench.Outcome again = AttackBench.run(List.of("--smoke", "--only", attack, "--heap", heap, "--transport", transport(),
                        "--out", out.resolve("again-" + attack + "-" + heap).toString()));
                failures.addAll(again.failures.stream().map(f -> f + " (and before it: " + failure + ")").collect(Collectors.toList()));
            } else {
                failures.add(failure);
            }
        }
        if (!failures.isEmpty()) {
            printServerLogs(out);
        }
        assertTrue(failures.isEmpty(), "bounds that did not hold:\n" + String.join("\n", failures));
        assertEquals(AttackBench.ATTACKS.size(), outcome.rows.size(), "every attack");
        assertTrue(Files.readAllLines(out.resolve("attack.csv")).size() == outcome.rows.size() + 1);
        assertTrue(Files.size(out.resolve("attack-heap.png")) > 1000);
        assertTrue(Files.size(out.resolve("attack-latency.png")) > 1000);
    }

    /** The end of every server log of the run, for a failure that does not repeat at will. */
    private static void printServerLogs(Path out) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(out)) {
            for (Path log : files.filter(f -> f.getFileName().toString().startsWith("server-")).sorted().collect(Collectors.toList())) {
                List<String> lines = Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
                System.out.println("attack smoke: the last lines of " + out.relativize(log) + " (" + lines.size() + " lines):");
                lines.subList(Math.max(0, lines.size() - 30), lines.size()).forEach(l -> System.out.println("  " + l));
            }
        }
    }
}
