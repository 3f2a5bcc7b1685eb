package wsjava.bench.fanout;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;
import wsjava.bench.ChartStyle;

/** The fan-out run as two bar charts (JFreeChart, in ChartStyle): deliveries per second, and latency at p50 and p99. */
final class FanoutChart {

    private FanoutChart() {
    }

    /** Rates from the loaded runs ({@code window} in flight), latency from the runs with one publish in flight. */
    static void write(Path rateFile, Path latencyFile, Map<String, FanoutLoad.Result> loaded, Map<String, FanoutLoad.Result> lone,
                      int subscribers, int topics, int size, int window) throws IOException {
        DefaultCategoryDataset rate = new DefaultCategoryDataset();
        DefaultCategoryDataset latency = new DefaultCategoryDataset();
        loaded.forEach((setup, r) -> rate.addValue(Math.round(r.deliveries / r.seconds), setup, window + " publishes in flight"));
        lone.forEach((setup, r) -> {
            latency.addValue(Math.round(r.percentileMicros(50)), setup, "p50");
            latency.addValue(Math.round(r.percentileMicros(99)), setup, "p99");
        });
        String what = subscribers + " subscribers over " + topics + " topics, " + size + " B messages";
        JFreeChart rates = ChartFactory.createBarChart("Topic fan-out: deliveries per second (higher is better)", what,
                "messages delivered to subscribers per second", rate, PlotOrientation.VERTICAL, true, false, false);
        ChartStyle.save(rates, rateFile);
        JFreeChart latencies = ChartFactory.createBarChart("Topic fan-out: latency of a lone publish (lower is better)", what + ", one publish in flight",
                "microseconds from publish to delivery", latency, PlotOrientation.VERTICAL, true, false, false);
        ChartStyle.save(latencies, latencyFile);
    }
}
