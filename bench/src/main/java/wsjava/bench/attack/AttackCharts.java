package wsjava.bench.attack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;
import wsjava.bench.ChartStyle;

/**
 * The attack run as two bar charts (JFreeChart, in the project's {@link ChartStyle}): the server's
 * heap under each attack, and a bystander's p99 meanwhile.
 */
final class AttackCharts {

    private AttackCharts() {
    }

    static void write(Path dir, List<AttackRow> rows) throws IOException {
        Files.createDirectories(dir);
        chart(dir.resolve("attack-heap.png"), "Server heap after a full GC while each attack holds on (lower is better)",
                "heap in use after a full GC, MiB", rows, r -> r.heapUnderAttack < 0 ? Double.NaN : r.heapUnderAttack / (double) Attack.MIB);
        chart(dir.resolve("attack-latency.png"), "A bystander's round-trip p99 during each attack (lower is better)",
                "p99 round trip, milliseconds", rows, r -> r.bystanderP99Millis);
    }

    private static void chart(Path file, String title, String axis, List<AttackRow> rows, ToDoubleFunction<AttackRow> value) throws IOException {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (AttackRow row : rows) {
            double v = value.applyAsDouble(row);
            if (!Double.isNaN(v)) {
                data.addValue(v, row.heap.equals("default") ? "default heap" : "-Xmx" + row.heap, row.attack);
            }
        }
        JFreeChart chart = ChartFactory.createBarChart(title, "attack", axis, data, PlotOrientation.HORIZONTAL, true, false, false);
        ChartStyle.save(chart, file, 900, 120 + 36 * Math.max(4, rows.size()));
    }
}
