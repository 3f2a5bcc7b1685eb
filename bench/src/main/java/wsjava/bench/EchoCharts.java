package wsjava.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;

/** The echo run as bar charts (JFreeChart), one per message size: thousands of round trips per second by server and connection count. */
final class EchoCharts {

    private EchoCharts() {
    }

    /** {@code rate} maps "server|size|connections" to messages per second; returns the files written. */
    static List<Path> write(Path dir, List<String> servers, int[] sizes, int[] counts, Map<String, Double> rate) throws IOException {
        List<Path> files = new ArrayList<>();
        Files.createDirectories(dir);
        for (int size : sizes) {
            DefaultCategoryDataset data = new DefaultCategoryDataset();
            for (int conns : counts) {
                for (String server : servers) {
                    Double v = rate.get(server + "|" + size + "|" + conns);
                    if (v != null) {
                        data.addValue(v / 1000.0, server, conns + (conns == 1 ? " connection" : " connections"));
                    }
                }
            }
            JFreeChart chart = ChartFactory.createBarChart(
                    "Echo of " + MaskBench.sizeName(size) + " messages, one in flight per connection (higher is better)",
                    "connections", "round trips per second, in thousands", data, PlotOrientation.VERTICAL, true, false, false);
            Path file = dir.resolve("echo-" + MaskBench.sizeName(size) + ".png");
            ChartStyle.save(chart, file);
            files.add(file);
        }
        return files;
    }
}
