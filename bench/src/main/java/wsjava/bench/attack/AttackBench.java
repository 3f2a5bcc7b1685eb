package wsjava.bench.attack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import wsjava.bench.Options;
import wsjava.bench.Progress;
import wsjava.bench.Report;

/**
 * {@code ./wsjava bench attack}: each attack of issue 20 as a bounded reproducer against a fresh
 * server in its own JVM, under {@code -Xmx128m} and under the JVM's default heap. For each it
 * measures the server's heap after a full GC and its RSS while the attack holds on, a bystander's
 * round-trip p99 meanwhile, both sides' CPU, and whether the server serves a new client afterwards;
 * then it checks the bounds the README promises ({@link Bounds}). Writes a table, {@code attack.csv}
 * and two charts; exits non-zero when a bound does not hold.
 *
 * <p>{@code --server-jar JAR} runs the same attacks against another build of the library (an
 * older commit, say), {@code --only a,b} some of them, {@code --heap 128m} one heap setting,
 * {@code --smoke} small and short versions (what the build's test runs), {@code --transport ffm}
 * the server on its FFM transport, on the newest JDK 22 or later (default: nio, on this JVM).
 */
public final class AttackBench {

    static final List<Supplier<Attack>> ATTACKS = List.of(PingFlood::new, TinyEchoFlood::new, CompressedStall::new,
            InflationBomb::new, TrickleStarve::new, CompressedCpu::new, EventQueueFlood::new, HandshakeFlood::new, ZlibContexts::new,
            CloseAfterCompressedSend::new, OneAddressBurst::new, SuspendedKeepalive::new, TlsHelloFlood::new, EventQueueChurn::new, EventQueueInProgress::new, RedisPeer::new);

    private AttackBench() {
    }

    /** Every row, and whether every bound held. */
    public static final class Outcome {
        public final List<List<String>> rows = new ArrayList<>();
        public final List<String> failures = new ArrayList<>();

        public boolean passed() {
            return failures.isEmpty();
        }
    }

    public static Outcome run(List<String> args) throws Exception {
        return run(args, ATTACKS);
    }

    static Outcome run(List<String> args, List<Supplier<Attack>> attacks) throws Exception {
        Attack.Scale scale = new Attack.Scale(args.contains("--smoke"));
        Path out = Path.of(Options.value(args, "--out", "results/attack"));
        String jar = Options.value(args, "--server-jar", null);
        Path libraryJar = jar == null ? null : Path.of(jar).toAbsolutePath();
        String arenas = Options.value(args, "--malloc-arena-max", "2");
        String transport = Options.value(args, "--transport", "nio");
        List<String> heaps = Arrays.asList(Options.value(args, "--heap", "128m,default").split(","));
        List<String> only = Arrays.asList(Options.value(args, "--only", "").split(","));
        Files.createDirectories(out);

        List<AttackRow> rows = new ArrayList<>();
        Progress progress = new Progress("attack", (long) heaps.size() * attacks.size());
        for (String heap : heaps) {
            for (Supplier<Attack> make : attacks) {
                Attack attack = make.get();
                if (!only.contains("") && !only.contains(attack.name())) {
                    progress.advance(1);
                    continue;
                }
                progress.detail(attack.name() + " under " + (heap.equals("default") ? "the default heap" : "-Xmx" + heap));
                Run run = new Run(attack, scale, heap.equals("default") ? null : heap, libraryJar, arenas, transport, out);
                long start = System.nanoTime();
                AttackRow row = run.measure(progress);
                rows.add(row);
                progress.advance(1);
                progress.line(String.format(Locale.ROOT, "%s (%s): %s, %.0f s", row.attack, row.heap,
                        row.passed() ? "holds" : "FAILS: " + String.join("; ", row.violations), (System.nanoTime() - start) / 1e9));
            }
        }
        progress.finish();
        return report(rows, attacks, out, scale, libraryJar + " " + transport);
    }

    private static Outcome report(List<AttackRow> rows, List<Supplier<Attack>> attacks, Path out, Attack.Scale scale, String server)
            throws Exception {
        Outcome outcome = new Outcome();
        Report table = new Report(AttackRow.columns());
        for (AttackRow row : rows) {
            table.add(row.cells());
            outcome.rows.add(row.cells());
            row.violations.forEach(v -> outcome.failures.add(row.attack + " (" + row.heap + "): " + v));
        }
        System.out.println();
        System.out.println("attacks on " + server.replaceFirst("^null ", "this build, transport ") + (scale.smoke ? " (smoke sizes)" : ""));
        for (Supplier<Attack> make : attacks) {
            Attack a = make.get();
            System.out.println("  " + a.name() + ": " + a.description(scale));
        }
        table.print(System.out);
        table.writeCsv(out.resolve("attack.csv"));
        AttackCharts.write(out, rows);
        System.out.println(outcome.passed() ? "attack: every bound holds" : "attack: FAILED\n  " + String.join("\n  ", outcome.failures));
        System.out.println("wrote " + out.resolve("attack.csv") + ", " + out.resolve("attack-heap.png") + ", " + out.resolve("attack-latency.png"));
        return outcome;
    }

    static String names() {
        return ATTACKS.stream().map(s -> s.get().name()).collect(Collectors.joining(", "));
    }
}
