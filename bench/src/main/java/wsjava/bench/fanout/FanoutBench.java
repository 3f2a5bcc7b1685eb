package wsjava.bench.fanout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import wsjava.bench.EchoBench;
import wsjava.bench.Options;
import wsjava.bench.Progress;
import wsjava.bench.Report;
import wsjava.redis.LocalRedis;

/**
 * {@code ./wsjava bench fanout}: topic fan-out, deliveries per second and publish-to-delivery
 * latency, for one WSJava server, one joined to a Redis, and three servers over one Redis (a
 * redis-server of its own on a free loopback port). Every server is a JVM of its own; the load
 * client is this JVM. CPU of each process is read from /proc over the measured window. Each setup
 * runs twice: with many publishes in flight (throughput: the machine is saturated, so latency is
 * mostly queueing), and with one in flight (latency of a lone publish).
 */
public final class FanoutBench {

    /** One configuration: how many servers, and whether a Redis joins them. */
    private static final class Setup {
        final String name;
        final int servers;
        final boolean redis;

        Setup(String name, int servers, boolean redis) {
            this.name = name;
            this.servers = servers;
            this.redis = redis;
        }
    }

    static final List<Setup> SETUPS = List.of(new Setup("WSJava, 1 server", 1, false),
            new Setup("WSJava, 1 server + Redis", 1, true), new Setup("WSJava, 3 servers + Redis", 3, true));

    private FanoutBench() {
    }

    /** Runs it; false when a delivery was wrong or lost, or a run failed. */
    public static boolean run(List<String> args) throws Exception {
        boolean smoke = args.contains("--smoke");
        boolean quick = args.contains("--quick");
        Path out = Path.of(Options.value(args, "--out", "results"));
        int subscribers = Integer.parseInt(Options.value(args, "--subscribers", smoke ? "12" : "600"));
        int topics = Integer.parseInt(Options.value(args, "--topics", smoke ? "3" : "10"));
        int size = Integer.parseInt(Options.value(args, "--size", "64"));
        int window = Integer.parseInt(Options.value(args, "--window", smoke ? "4" : "128"));
        int repeat = Integer.parseInt(Options.value(args, "--repeat", smoke ? "1" : "3"));
        double warmup = smoke ? 0.3 : quick ? 1.0 : 3.0;
        double measure = smoke ? 0.5 : quick ? 2.0 : 5.0;
        Files.createDirectories(out);
        boolean haveRedis = LocalRedis.available();
        System.out.printf(Locale.ROOT, "fan-out (%s): %d subscribers over %d topics, %d B binary messages, %d publishes in flight, then 1; "
                + "%.1f s each, %d runs a row (the median shown)%s%n", smoke ? "smoke" : quick ? "quick" : "full", subscribers, topics, size, window,
                measure, repeat, haveRedis ? "" : "; no redis-server here: Redis runs skipped");
        Report table = new Report(List.of("setup", "servers", "subscribers", "topics", "in flight", "deliveries/s", "publishes/s", "p50 us", "p99 us",
                "servers CPU %", "Redis CPU %", "client CPU %", "note"));
        Map<String, FanoutLoad.Result> loaded = new LinkedHashMap<>();
        Map<String, FanoutLoad.Result> lone = new LinkedHashMap<>();
        Progress progress = new Progress("fanout", SETUPS.size() * 2L * repeat);
        boolean ok = true;
        for (Setup setup : SETUPS) {
            progress.detail(setup.name);
            if (setup.redis && !haveRedis) {
                table.add(List.of(setup.name, Integer.toString(setup.servers), "", "", "", "", "", "", "", "", "", "", "skipped: no redis-server"));
                progress.advance(2L * repeat);
                continue;
            }
            List<FanoutLoad.Result> r = runSetup(setup, subscribers, topics, size, List.of(window, 1), repeat, warmup, measure, out, table, progress);
            loaded.put(setup.name, r.get(0));
            lone.put(setup.name, r.get(1));
            for (FanoutLoad.Result x : r) {
                ok &= x.wrong == 0 && x.incomplete == 0 && x.deliveries > 0;
            }
        }
        progress.finish();
        System.out.println();
        table.print(System.out);
        table.writeCsv(out.resolve("fanout.csv"));
        FanoutChart.write(out.resolve("fanout.png"), out.resolve("fanout-latency.png"), loaded, lone, subscribers, topics, size, window);
        System.out.println("wrote " + out.resolve("fanout.csv") + ", " + out.resolve("fanout.png") + ", " + out.resolve("fanout-latency.png"));
        return ok;
    }

    /**
     * Starts the setup's processes once and runs each window size {@code repeat} times on them; a
     * row per window with the run of median deliveries/s (its latency and CPU), and every run's
     * rate in the note, since runs on a shared two-core machine vary.
     */
    private static List<FanoutLoad.Result> runSetup(Setup setup, int subscribers, int topics, int size, List<Integer> windows, int repeat,
                                                    double warmup, double measure, Path out, Report table, Progress progress) throws Exception {
        LocalRedis redis = setup.redis ? LocalRedis.start() : null;
        List<Process> servers = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        try {
            for (int i = 0; i < setup.servers; i++) {
                int port = EchoBench.freePort();
                List<String> args = redis == null ? List.of() : List.of("--redis", Integer.toString(redis.port()));
                servers.add(EchoBench.start(EchoBench.peer("fanout-" + (i + 1), FanoutServer.class.getName(), args), port, false, out));
                ports.add(port);
            }
            List<Long> pids = new ArrayList<>();
            servers.forEach(p -> pids.add(p.pid()));
            List<FanoutLoad.Result> medians = new ArrayList<>();
            for (int window : windows) {
                List<FanoutLoad.Result> runs = new ArrayList<>();
                Map<FanoutLoad.Result, FanoutCpu> cpus = new LinkedHashMap<>();
                for (int k = 0; k < repeat; k++) {
                    FanoutCpu cpu = new FanoutCpu(pids, redis == null ? -1 : redis.pid());
                    progress.detail(setup.name + ", " + window + " in flight, run " + (k + 1) + "/" + repeat);
                    FanoutLoad.Result r = new FanoutLoad(ports, subscribers, topics, size, window).run(warmup, measure, cpu);
                    progress.advance(1);
                    runs.add(r);
                    cpus.put(r, cpu);
                }
                List<FanoutLoad.Result> byRate = new ArrayList<>(runs);
                byRate.sort(java.util.Comparator.comparingLong(x -> x.deliveries));
                FanoutLoad.Result median = byRate.get(byRate.size() / 2);
                FanoutCpu cpu = cpus.get(median);
                long wrong = runs.stream().mapToLong(x -> x.wrong).sum();
                long lost = runs.stream().mapToLong(x -> x.incomplete).sum();
                String note = (repeat > 1 ? "runs: " + String.join(" ", runs.stream().map(x -> Report.fixed(x.deliveries / x.seconds, 0)).toList()) + "; " : "")
                        + (wrong == 0 ? "" : wrong + " wrong deliveries; ") + (lost == 0 ? "" : lost + " publishes lost");
                table.add(List.of(setup.name, Integer.toString(setup.servers), Integer.toString(subscribers), Integer.toString(topics),
                        Integer.toString(window), Report.fixed(median.deliveries / median.seconds, 0), Report.fixed(median.publishes / median.seconds, 0),
                        Report.fixed(median.percentileMicros(50), 0), Report.fixed(median.percentileMicros(99), 0),
                        cpu.servers(), cpu.redis(), cpu.client(), note.replaceAll("; $", "")));
                median.wrong = wrong;
                median.incomplete = lost;
                medians.add(median);
            }
            return medians;
        } finally {
            for (Process p : servers) {
                EchoBench.stop(p);
            }
            if (redis != null) {
                redis.close();
            }
        }
    }
}
