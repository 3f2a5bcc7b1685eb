package wsjava.bench.soak;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import wsjava.bench.EchoBench;
import wsjava.bench.Options;
import wsjava.bench.Progress;
import wsjava.bench.Report;

/**
 * {@code ./wsjava bench soak}: a bounded chaos run against the WSJava echo server in its own JVM.
 * Well-behaved clients exchange sequence-numbered messages while others misbehave at random; it
 * reports messages lost, duplicated or reordered among the well-behaved (must be 0), wrong answers
 * to the misbehaviours, I/O thread deaths (must be 0) and the server's RSS over time (must level
 * off). Exits non-zero when any of those fails.
 */
public final class SoakBench {

    private SoakBench() {
    }

    /** The outcome, for the smoke test. */
    public static final class Outcome {
        public long echoed;
        public long lost;
        public long duplicated;
        public long reordered;
        public long wrongAnswers;
        public long threadDeaths;
        public boolean serverServesAfterwards;
        public boolean rssLevelsOff;
        public final List<String> failures = new ArrayList<>();

        public boolean passed() {
            return lost == 0 && duplicated == 0 && reordered == 0 && wrongAnswers == 0 && threadDeaths == 0
                    && serverServesAfterwards && rssLevelsOff && failures.isEmpty();
        }
    }

    public static Outcome run(List<String> args) throws Exception {
        boolean smoke = args.contains("--smoke");
        int seconds = Integer.parseInt(Options.value(args, "--seconds", smoke ? "8" : "120"));
        int clients = Integer.parseInt(Options.value(args, "--clients", smoke ? "20" : "300"));
        int chaos = Integer.parseInt(Options.value(args, "--chaos", smoke ? "4" : "24"));
        Path out = Path.of(Options.value(args, "--out", "results"));
        Files.createDirectories(out);

        int port = EchoBench.freePort();
        Process server = EchoBench.start(EchoBench.PEERS.get(0), port, false, out);
        Path serverLog = out.resolve("server-WSJava.log");
        Outcome outcome = new Outcome();
        Report rss = new Report(List.of("second", "server RSS (MiB)", "echoed so far"));
        Map<Misbehaviour, LongAdder> runs = new EnumMap<>(Misbehaviour.class);
        Map<Misbehaviour, LongAdder> wrong = new EnumMap<>(Misbehaviour.class);
        for (Misbehaviour m : Misbehaviour.values()) {
            runs.put(m, new LongAdder());
            wrong.put(m, new LongAdder());
        }
        AtomicBoolean running = new AtomicBoolean(true);
        HttpClient http = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(4)).build();
        URI uri = URI.create("ws://127.0.0.1:" + port + "/");
        List<SequencedClient> good = new ArrayList<>();
        List<Thread> troublemakers = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                SequencedClient c = new SequencedClient(i);
                c.connect(http, uri);
                good.add(c);
            }
            for (int t = 0; t < chaos; t++) {
                Random random = new Random(1000 + t);
                Thread thread = new Thread(() -> misbehave(port, random, running, runs, wrong, outcome), "chaos-" + t);
                thread.setDaemon(true);
                thread.start();
                troublemakers.add(thread);
            }
            Progress progress = new Progress("soak", seconds);
            for (int s = 1; s <= seconds; s++) {
                Thread.sleep(1_000);
                long echoed = good.stream().mapToLong(SequencedClient::received).sum();
                long kib = rssKiB(server.pid());
                rss.add(List.of(Integer.toString(s), Report.fixed(kib / 1024.0, 1), Long.toString(echoed)));
                progress.detail(String.format("RSS %.0f MiB, %d echoed, %d misbehaviours", kib / 1024.0, echoed,
                        runs.values().stream().mapToLong(LongAdder::sum).sum()));
                progress.advance(1);
            }
            progress.finish();
            running.set(false);
            for (Thread t : troublemakers) {
                t.join(30_000);
            }
            for (SequencedClient c : good) {
                c.finish(15_000);
            }
            for (SequencedClient c : good) {
                outcome.echoed += c.received();
                outcome.lost += c.lost();
                outcome.duplicated += c.duplicated();
                outcome.reordered += c.reordered();
                if (c.failure() != null) {
                    outcome.failures.add(c.failure());
                }
            }
            outcome.serverServesAfterwards = serves(http, uri);
        } finally {
            running.set(false);
            server.destroy();
            server.waitFor();
            http.executor().ifPresent(e -> ((java.util.concurrent.ExecutorService) e).shutdownNow());
        }
        outcome.wrongAnswers = wrong.values().stream().mapToLong(LongAdder::sum).sum();
        outcome.threadDeaths = threadDeaths(serverLog);
        outcome.rssLevelsOff = levelsOff(rss.rows());
        report(out, outcome, rss, runs, wrong, clients, chaos, seconds);
        return outcome;
    }

    private static void misbehave(int port, Random random, AtomicBoolean running, Map<Misbehaviour, LongAdder> runs,
                                  Map<Misbehaviour, LongAdder> wrong, Outcome outcome) {
        Misbehaviour[] all = Misbehaviour.values();
        while (running.get()) {
            Misbehaviour m = all[random.nextInt(all.length)];
            try {
                if (!m.run(port, random)) {
                    wrong.get(m).increment();
                }
            } catch (IOException e) {
                // a misbehaving client being cut off is the server doing its job
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                synchronized (outcome) {
                    outcome.failures.add(m + ": " + e);
                }
            }
            runs.get(m).increment();
        }
    }

    private static boolean serves(HttpClient http, URI uri) {
        try {
            SequencedClient probe = new SequencedClient(-1);
            probe.connect(http, uri);
            long deadline = System.currentTimeMillis() + 10_000;
            while (probe.received() < 4 && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            probe.finish(5_000);
            return probe.received() >= 4;
        } catch (Exception e) {
            return false;
        }
    }

    /** The server logs a line with "I/O thread" when a loop fails; an uncaught exception names the thread. */
    private static long threadDeaths(Path log) throws IOException {
        if (!Files.exists(log)) {
            return 0;
        }
        return Files.readAllLines(log).stream()
                .filter(l -> l.contains("Exception in thread \"wsjava-io") || (l.contains("I/O thread") && l.contains("failed")))
                .count();
    }

    /** RSS levels off when its peak over the last third is within 10% (plus 16 MiB) of its peak over the middle third. */
    static boolean levelsOff(List<List<String>> rows) {
        if (rows.size() < 3) {
            return true;
        }
        int third = rows.size() / 3;
        double middle = peak(rows.subList(third, 2 * third));
        double last = peak(rows.subList(2 * third, rows.size()));
        return last <= middle * 1.10 + 16;
    }

    private static double peak(List<List<String>> rows) {
        return rows.stream().mapToDouble(r -> Double.parseDouble(r.get(1))).max().orElse(0);
    }

    private static long rssKiB(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the server is gone
        }
        return -1;
    }

    private static void report(Path out, Outcome o, Report rss, Map<Misbehaviour, LongAdder> runs, Map<Misbehaviour, LongAdder> wrong,
                               int clients, int chaos, int seconds) throws IOException {
        Report summary = new Report(List.of("measure", "value", "must be"));
        summary.add(List.of("run", seconds + " s, " + clients + " well-behaved clients, " + chaos + " misbehaving threads", ""));
        summary.add(List.of("messages echoed to the well-behaved", Long.toString(o.echoed), "> 0"));
        summary.add(List.of("lost", Long.toString(o.lost), "0"));
        summary.add(List.of("duplicated", Long.toString(o.duplicated), "0"));
        summary.add(List.of("reordered", Long.toString(o.reordered), "0"));
        for (Misbehaviour m : Misbehaviour.values()) {
            summary.add(List.of(m.name().toLowerCase().replace('_', ' ') + " (runs / wrong answers)",
                    runs.get(m).sum() + " / " + wrong.get(m).sum(), "wrong = 0"));
        }
        summary.add(List.of("I/O thread deaths", Long.toString(o.threadDeaths), "0"));
        List<List<String>> rows = rss.rows();
        summary.add(List.of("server RSS first / peak / last (MiB)", rows.isEmpty() ? "n/a"
                : rows.get(0).get(1) + " / " + Report.fixed(peak(rows), 1) + " / " + rows.get(rows.size() - 1).get(1), "levels off"));
        summary.add(List.of("RSS levels off", o.rssLevelsOff ? "yes" : "no", "yes"));
        summary.add(List.of("server serves a new client afterwards", o.serverServesAfterwards ? "yes" : "no", "yes"));
        summary.add(List.of("client-side failures", o.failures.isEmpty() ? "none" : String.join("; ", o.failures), "none"));
        System.out.println();
        summary.print(System.out);
        summary.writeCsv(out.resolve("soak.csv"));
        rss.writeCsv(out.resolve("soak-rss.csv"));
        SoakChart.rssOverTime(out.resolve("soak-rss.png"), rows);
        System.out.println(o.passed() ? "soak: PASSED" : "soak: FAILED");
        System.out.println("wrote " + out.resolve("soak.csv") + ", " + out.resolve("soak-rss.csv") + ", " + out.resolve("soak-rss.png"));
    }
}
