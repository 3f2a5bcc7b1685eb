package wsjava.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import wsjava.mask.Masker;

/**
 * {@code ./wsjava bench mask-direct}: runs {@code DirectMaskBenchmark} under JMH and reports
 * in-place masking of a direct buffer against System.arraycopy of the same bytes, measured in the
 * same run: a table, CSV and a JFreeChart chart of GB/s.
 */
public final class DirectMaskBench {

    static final List<String> VARIANTS = List.of("directSimd", "directScalar", "directMasker", "heapSimd", "arraycopy", "directCopy");

    private DirectMaskBench() {
    }

    public static void run(List<String> args) throws Exception {
        boolean smoke = args.contains("--smoke");
        boolean quick = args.contains("--quick");
        Path out = Path.of(Options.value(args, "--out", "results"));
        ChainedOptionsBuilder options = MaskBench.jmhOptions("wsjava\\.mask\\.DirectMaskBenchmark\\.", "-Xmx1g", smoke, quick);
        int sizes = smoke ? 2 : 5;
        System.out.printf("direct-buffer mask benchmark (%s mode): %d JMH runs, kernel in this JVM: %s%n",
                smoke ? "smoke" : quick ? "quick" : "full", VARIANTS.size() * sizes, Masker.implementation());
        Progress progress = new Progress("mask-direct", VARIANTS.size() * sizes);
        Collection<RunResult> results = new Runner(options.build(), new ProgressFormat(progress)).run();
        progress.finish();

        Map<String, Double> nsPerOp = new HashMap<>();
        TreeSet<Integer> sizeSet = new TreeSet<>();
        for (RunResult r : results) {
            int size = Integer.parseInt(r.getParams().getParam("size"));
            sizeSet.add(size);
            nsPerOp.put(size + "|" + r.getParams().getBenchmark().replaceAll(".*\\.", ""), r.getPrimaryResult().getScore());
        }
        Report table = new Report(List.of("size", "variant", "ns/op", "GB/s", "x arraycopy time"));
        DefaultCategoryDataset chart = new DefaultCategoryDataset();
        for (int size : sizeSet) {
            double copy = nsPerOp.getOrDefault(size + "|arraycopy", Double.NaN);
            for (String variant : VARIANTS) {
                double ns = nsPerOp.getOrDefault(size + "|" + variant, Double.NaN);
                table.add(List.of(MaskBench.sizeName(size), variant, Report.fixed(ns, 1), Report.fixed(size / ns, 2), Report.fixed(ns / copy, 2)));
                chart.addValue(size / ns, variant, MaskBench.sizeName(size));
            }
        }
        System.out.println();
        table.print(System.out);
        Files.createDirectories(out);
        table.writeCsv(out.resolve("mask-direct.csv"));
        JFreeChart bars = ChartFactory.createBarChart("Unmasking in place in a direct buffer vs copying the same bytes (higher is better)",
                "payload size", "gigabytes per second", chart, PlotOrientation.VERTICAL, true, false, false);
        ChartStyle.save(bars, out.resolve("mask-direct.png"));
        System.out.println("wrote " + out.resolve("mask-direct.csv") + " and " + out.resolve("mask-direct.png"));
        for (int size : sizeSet) {
            System.out.printf(Locale.ROOT, "summary %s: directMasker/arraycopy time = %s, directSimd/arraycopy = %s%n", MaskBench.sizeName(size),
                    Report.fixed(nsPerOp.get(size + "|directMasker") / nsPerOp.get(size + "|arraycopy"), 2),
                    Report.fixed(nsPerOp.get(size + "|directSimd") / nsPerOp.get(size + "|arraycopy"), 2));
        }
    }
}
