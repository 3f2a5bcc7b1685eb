package wsjava.bench.soak;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartFactory;
import wsjava.bench.ChartStyle;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The soak run's server RSS over time, drawn with JFreeChart. */
final class SoakChart {

    private SoakChart() {
    }

    static void rssOverTime(Path file, List<List<String>> rows) throws IOException {
        XYSeries rss = new XYSeries("WSJava server RSS");
        for (List<String> row : rows) {
            rss.add(Double.parseDouble(row.get(0)), Double.parseDouble(row.get(1)));
        }
        JFreeChart chart = ChartFactory.createXYLineChart("WSJava under chaos: server memory over time (flat is good)",
                "seconds since the start", "resident memory, in mebibytes", new XYSeriesCollection(rss), PlotOrientation.VERTICAL, true, false, false);
        ChartStyle.save(chart, file);
    }
}
