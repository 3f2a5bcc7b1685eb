package wsjava.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import wsjava.mask.Masker;

/**
 * Runs {@code MaskBenchmark} under JMH and reports it: a table of ns/op and GB/s per variant and
 * size, CSV, a PNG, and a last line with the two target ratios measured in this same run.
 */
public final class MaskBench {

    static final List<String> VARIANTS = List.of("mask6Style", "mask7Style", "nettyStyle", "wsjavaScalar", "wsjavaSimd",
            "wsjavaMasker", "arraycopy");

    private MaskBench() {
    }

    public static void run(List<String> args) throws Exception {
        boolean quick = args.contains("--quick");
        boolean smoke = args.contains("--smoke");
        Path out = Path.of(Options.value(args, "--out", "results"));
        ChainedOptionsBuilder options = jmhOptions("wsjava\\.mask\\.MaskBenchmark\\.", "-Xmx2g", smoke, quick);
        if (smoke) {
            options.param("mode", "inPlace");
        }
        int total = VARIANTS.size() * (smoke ? 2 : 10);
        System.out.printf("mask benchmark (%s mode): %d JMH runs, kernel in this JVM: %s%n",
                smoke ? "smoke" : quick ? "quick" : "full", total, Masker.implementation());
        Progress progress = new Progress("mask", total);
        options.operationsPerInvocation(1);
        Collection<RunResult> results = new Runner(options.build(), new ProgressFormat(progress)).run();
        progress.finish();

        Map<String, Double> nsPerOp = new HashMap<>();
        Set<String> groups = new LinkedHashSet<>();
        for (RunResult r : results) {
            String variant = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            String group = r.getParams().getParam("mode") + " " + sizeName(Integer.parseInt(r.getParams().getParam("size")));
            groups.add(group);
            nsPerOp.put(group + "|" + variant, r.getPrimaryResult().getScore());
        }
        Report table = new Report(List.of("mode", "size", "variant", "ns/op", "GB/s", "x arraycopy", "x nettyStyle"));
        List<String> groupList = new ArrayList<>(groups);
        double[][] chart = new double[groupList.size()][VARIANTS.size()];
        for (int gi = 0; gi < groupList.size(); gi++) {
            String group = groupList.get(gi);
            String[] parts = group.split(" ");
            double copy = nsPerOp.getOrDefault(group + "|arraycopy", Double.NaN);
            double netty = nsPerOp.getOrDefault(group + "|nettyStyle", Double.NaN);
            for (int vi = 0; vi < VARIANTS.size(); vi++) {
                String variant = VARIANTS.get(vi);
                double ns = nsPerOp.getOrDefault(group + "|" + variant, Double.NaN);
                chart[gi][vi] = ns;
                double bytes = parseSize(parts[1]);
                table.add(List.of(parts[0], parts[1], variant, Report.fixed(ns, 1), Report.fixed(bytes / ns, 2),
                        Report.fixed(ns / copy, 2), Report.fixed(netty / ns, 2)));
            }
        }
        System.out.println();
        table.print(System.out);
        table.writeCsv(out.resolve("mask-jmh.csv"));
        Report.barChart(out.resolve("mask-jmh.png"), "WebSocket masking, JMH average time per call", "nanoseconds per call",
                groupList, VARIANTS, chart);
        System.out.println("wrote " + out.resolve("mask-jmh.csv") + " and " + out.resolve("mask-jmh.png"));

        String mib = "inPlace 1MiB";
        String kib16 = "inPlace 16KiB";
        double best1m = Math.min(nsPerOp.getOrDefault(mib + "|wsjavaSimd", Double.NaN), nsPerOp.getOrDefault(mib + "|wsjavaScalar", Double.NaN));
        System.out.printf(Locale.ROOT, "summary: 1 MiB ours/arraycopy = %s (target <= 1.10); 16 KiB simd vs netty = %sx (target >= 4), scalar vs netty = %sx (target >= 1.0)%n",
                Report.fixed(best1m / nsPerOp.getOrDefault(mib + "|arraycopy", Double.NaN), 2),
                Report.fixed(nsPerOp.getOrDefault(kib16 + "|nettyStyle", Double.NaN) / nsPerOp.getOrDefault(kib16 + "|wsjavaSimd", Double.NaN), 2),
                Report.fixed(nsPerOp.getOrDefault(kib16 + "|nettyStyle", Double.NaN) / nsPerOp.getOrDefault(kib16 + "|wsjavaScalar", Double.NaN), 2));
    }

    /**
     * JMH options shared by the masking benchmarks: the Vector API module, a silent run, and the
     * iteration counts of a smoke (sizes 125 B and 16 KiB, in this JVM), quick or full run.
     */
    static ChainedOptionsBuilder jmhOptions(String include, String heap, boolean smoke, boolean quick) {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(include)
                .jvmArgsAppend("--add-modules", "jdk.incubator.vector", heap)
                .verbosity(VerboseMode.SILENT)
                .shouldFailOnError(true);
        if (smoke) {
            options.forks(0).warmupIterations(1).measurementIterations(1)
                    .warmupTime(TimeValue.milliseconds(20)).measurementTime(TimeValue.milliseconds(20))
                    .param("size", "125", "16384");
        } else if (quick) {
            options.forks(1).warmupIterations(2).measurementIterations(3)
                    .warmupTime(TimeValue.milliseconds(150)).measurementTime(TimeValue.milliseconds(150));
        } else {
            options.forks(1).warmupIterations(3).measurementIterations(5)
                    .warmupTime(TimeValue.milliseconds(500)).measurementTime(TimeValue.milliseconds(500));
        }
        return options;
    }

    public static String sizeName(int bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + "MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + "KiB";
        }
        return bytes + "B";
    }

    static double parseSize(String name) {
        if (name.endsWith("MiB")) {
            return Double.parseDouble(name.replace("MiB", "")) * (1 << 20);
        }
        if (name.endsWith("KiB")) {
            return Double.parseDouble(name.replace("KiB", "")) * 1024;
        }
        return Double.parseDouble(name.replace("B", ""));
    }
}
