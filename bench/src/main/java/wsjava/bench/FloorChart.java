package wsjava.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The head-to-head as one chart: each server's CPU per echoed message over the floor's, by message
 * size (the floor's own bar is 1). A bar's height is what that server pays above the kernel's
 * share; a server missing from a size did not run there.
 */
final class FloorChart {

    private FloorChart() {
    }

    /** Writes the chart to {@code file}, unless the floor did not run (then there is nothing to divide by). */
    static void write(Path file, List<EchoBench.Peer> compared, int[] sizes, Map<String, EchoHeadToHead.Median> medians) throws IOException {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (int size : sizes) {
            EchoHeadToHead.Median floor = medians.get(FloorPeer.NAME + "|" + size);
            if (floor == null || !(floor.serverMicrosPerMessage > 0)) {
                continue;
            }
            for (EchoBench.Peer p : compared) {
                EchoHeadToHead.Median m = medians.get(p.name + "|" + size);
                if (m != null && m.serverMicrosPerMessage > 0) {
                    data.addValue(m.serverMicrosPerMessage / floor.serverMicrosPerMessage, p.name, MaskBench.sizeName(size));
                }
            }
        }
        if (data.getRowCount() == 0) {
            return;
        }
        JFreeChart chart = ChartFactory.createBarChart("Server CPU per echoed message, as a multiple of the floor's (lower is cheaper)",
                "message size", "CPU per message ÷ the floor's", data, PlotOrientation.VERTICAL, true, false, false);
        ChartStyle.save(chart, file);
    }
}
