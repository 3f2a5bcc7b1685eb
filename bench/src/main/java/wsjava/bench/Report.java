package wsjava.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.data.category.DefaultCategoryDataset;

/** A results table that prints aligned, saves as CSV, and draws grouped bars as a PNG. */
public final class Report {

    private final List<String> columns;
    private final List<List<String>> rows = new ArrayList<>();

    public Report(List<String> columns) {
        this.columns = columns;
    }

    public void add(List<String> row) {
        if (row.size() != columns.size()) {
            throw new IllegalArgumentException("row has " + row.size() + " cells, table has " + columns.size() + " columns");
        }
        rows.add(row);
    }

    public List<List<String>> rows() {
        return rows;
    }

    public void print(PrintStream out) {
        int[] widths = new int[columns.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = columns.get(c).length();
            for (List<String> r : rows) {
                widths[c] = Math.max(widths[c], r.get(c).length());
            }
        }
        out.println(line(columns, widths));
        StringBuilder rule = new StringBuilder("|");
        for (int w : widths) {
            rule.append("-".repeat(w + 2)).append('|');
        }
        out.println(rule);
        for (List<String> r : rows) {
            out.println(line(r, widths));
        }
    }

    private static String line(List<String> cells, int[] widths) {
        StringBuilder b = new StringBuilder("|");
        for (int c = 0; c < cells.size(); c++) {
            b.append(' ').append(String.format("%-" + widths[c] + "s", cells.get(c))).append(" |");
        }
        return b.toString();
    }

    public void writeCsv(Path file) throws IOException {
        StringBuilder b = new StringBuilder(String.join(",", columns)).append('\n');
        for (List<String> r : rows) {
            List<String> quoted = new ArrayList<>();
            for (String cell : r) {
                quoted.add(cell.contains(",") || cell.contains("\"") ? '"' + cell.replace("\"", "\"\"") + '"' : cell);
            }
            b.append(String.join(",", quoted)).append('\n');
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, b.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Grouped horizontal bars on a log scale (JFreeChart, in {@link ChartStyle}): one group per
     * {@code groups} entry, one bar per series, its value written on it. {@code values[g][s]} may
     * be NaN for a variant that did not run (no bar). {@code unit} is written out in words.
     */
    public static void barChart(Path file, String title, String unit, List<String> groups, List<String> series,
                                double[][] values) throws IOException {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        double min = Double.MAX_VALUE;
        for (int gi = 0; gi < groups.size(); gi++) {
            for (int si = 0; si < series.size(); si++) {
                double v = values[gi][si];
                if (v > 0 && !Double.isNaN(v)) {
                    data.addValue(v, series.get(si), groups.get(gi));
                    min = Math.min(min, v);
                }
            }
        }
        JFreeChart chart = ChartFactory.createBarChart(title, null, unit + ", log scale (shorter is faster)", data,
                PlotOrientation.HORIZONTAL, true, false, false);
        CategoryPlot plot = chart.getCategoryPlot();
        LogAxis log = new LogAxis(unit + ", log scale (shorter is faster)");
        log.setSmallestValue(min / 2);
        log.setTickUnit(new NumberTickUnit(1.0));     // a tick at each power of ten, written as a number
        log.setNumberFormatOverride(new java.text.DecimalFormat("#,##0.###"));
        plot.setRangeAxis(log);
        ((BarRenderer) plot.getRenderer()).setBase(Math.pow(10, Math.floor(Math.log10(min))));
        ((BarRenderer) plot.getRenderer()).setIncludeBaseInRange(false);
        ChartStyle.save(chart, file, 1000, 140 + groups.size() * (series.size() * 14 + 16));
    }

    public static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
