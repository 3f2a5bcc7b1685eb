package wsjava.bench.deflate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import wsjava.bench.ChartStyle;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;

/** The compressed echo run as a bar chart (JFreeChart): payload throughput per message size and server. */
final class DeflateChart {

    private DeflateChart() {
    }

    /** {@code mbPerSecond} maps "server|size name" to MB/s of message payload echoed. */
    static void write(Path file, List<String> servers, List<String> sizes, Map<String, Double> mbPerSecond, int connections) throws IOException {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (String size : sizes) {
            for (String server : servers) {
                Double v = mbPerSecond.get(server + "|" + size);
                if (v != null) {
                    data.addValue(v, server, size);
                }
            }
        }
        JFreeChart chart = ChartFactory.createBarChart(
                "Compressed echo of WL-expression text, " + connections + " connections (higher is better)",
                "message size", "megabytes of message payload echoed per second", data, PlotOrientation.VERTICAL, true, false, false);
        ChartStyle.save(chart, file);
    }
}
