package wsjava.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYItemRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.xy.XYDataset;

/**
 * One look for every chart the benchmarks draw: a white background, one colour per system in
 * every chart (WSJava always the same blue), values on the bars, and the machine and the date in
 * a subtitle, so a chart read on its own says where it was measured.
 */
public final class ChartStyle {

    /**
     * Fixed colours by system, found in a series name by a keyword (case ignored; the first that
     * matches wins, so "netty (epoll)" comes before "netty").
     */
    private static final Map<String, Color> SYSTEMS = new LinkedHashMap<>();

    static {
        SYSTEMS.put("floor", new Color(0x424242));   // the bare C echo of the echo run
        SYSTEMS.put("wsjava", new Color(0x1565C0));
        SYSTEMS.put("uwebsockets", new Color(0xEF6C00));
        SYSTEMS.put("epoll", new Color(0x66BB6A));
        SYSTEMS.put("io_uring", new Color(0x9E9D24));
        SYSTEMS.put("netty", new Color(0x2E7D32));
        SYSTEMS.put("jetty", new Color(0xC62828));
        SYSTEMS.put("java-websocket", new Color(0x6A1B9A));
        SYSTEMS.put("redis", new Color(0xB71C1C));
        SYSTEMS.put("python", new Color(0xF9A825));
        SYSTEMS.put("node", new Color(0x00838F));
        SYSTEMS.put("erlang", new Color(0xAD1457));
        SYSTEMS.put("mask", new Color(0x5D4037));   // the article's C loops (mask6, mask7), "c-mask6-style"
    }

    /** For series that name no system (phases, sizes): distinct, and stable by position. */
    private static final Color[] OTHERS = {new Color(0x546E7A), new Color(0x8D6E63), new Color(0x26A69A), new Color(0xFFA726),
        new Color(0x7E57C2), new Color(0xEC407A), new Color(0x9CCC65), new Color(0x29B6F6)};

    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);
    private static final Font SUBTITLE = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 10);

    private ChartStyle() {
    }

    /** The system a series belongs to (a key of SYSTEMS), or null. */
    static String systemOf(String series) {
        String name = series.toLowerCase(java.util.Locale.ROOT);
        for (String key : SYSTEMS.keySet()) {
            if (name.contains(key)) {
                return key;
            }
        }
        return null;
    }

    /** The colour of a system in every chart; a series naming no system gets one by its position. */
    public static Color colour(String series, int index) {
        String system = systemOf(series);
        return system != null ? SYSTEMS.get(system) : OTHERS[Math.floorMod(index, OTHERS.length)];
    }

    /**
     * The colours of a chart's series: each system's own, and when one system has several series
     * (WSJava's scalar and SIMD kernels) lighter shades of it after the first.
     */
    static List<Color> colours(List<String> series) {
        Map<String, Integer> seen = new java.util.HashMap<>();
        List<Color> out = new java.util.ArrayList<>();
        for (int i = 0; i < series.size(); i++) {
            Color base = colour(series.get(i), i);
            int k = seen.merge(String.valueOf(systemOf(series.get(i)) == null ? "#" + i : systemOf(series.get(i))), 1, Integer::sum) - 1;
            out.add(lighter(base, Math.min(0.6, 0.3 * k)));
        }
        return out;
    }

    private static Color lighter(Color c, double towardsWhite) {
        return new Color((int) (c.getRed() + (255 - c.getRed()) * towardsWhite), (int) (c.getGreen() + (255 - c.getGreen()) * towardsWhite),
                (int) (c.getBlue() + (255 - c.getBlue()) * towardsWhite));
    }

    /** "2 cores, <processor>, <OS>, Java <version>, <date>": where and when the numbers were measured. */
    public static String machine() {
        String cpu = "";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim().replaceAll("\\s+", " ")).findFirst().orElse("");
        } catch (IOException | RuntimeException e) {
            // not Linux: the core count and the OS still say a lot
        }
        int cores = Runtime.getRuntime().availableProcessors();
        return (cpu.isEmpty() ? "" : cpu + ", ") + machineCores() + " cores (" + cores + " for this JVM), "
                + System.getProperty("os.name") + ", Java " + System.getProperty("java.version") + ", " + LocalDate.now();
    }

    private static long machineCores() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("processor")).count();
        } catch (IOException | RuntimeException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /** Styles the chart and writes it as PNG (900 x 480 unless given). */
    public static void save(JFreeChart chart, Path file) throws IOException {
        save(chart, file, 900, 480);
    }

    public static void save(JFreeChart chart, Path file, int width, int height) throws IOException {
        style(chart);
        Files.createDirectories(file.toAbsolutePath().getParent());
        ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
    }

    static void style(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getTitle().setFont(TITLE);
        chart.addSubtitle(new TextTitle(machine(), SUBTITLE));
        LegendTitle legend = chart.getLegend();
        if (legend != null) {
            legend.setFrame(BlockBorder.NONE);
            legend.setPosition(RectangleEdge.BOTTOM);
            legend.setBackgroundPaint(Color.WHITE);
        }
        if (chart.getPlot() instanceof CategoryPlot) {
            styleBars((CategoryPlot) chart.getPlot());
        } else if (chart.getPlot() instanceof XYPlot) {
            styleLines((XYPlot) chart.getPlot());
        }
    }

    private static void styleBars(CategoryPlot plot) {
        plot.setBackgroundPaint(Color.WHITE);
        plot.setOutlineVisible(false);
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        plot.setRangeGridlineStroke(new BasicStroke(1f));
        BarRenderer bars = (BarRenderer) plot.getRenderer();
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setItemMargin(0.04);
        bars.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat("#,##0.###")));
        bars.setDefaultItemLabelsVisible(true);
        bars.setDefaultItemLabelFont(LABEL);
        CategoryDataset data = plot.getDataset();
        List<String> names = new java.util.ArrayList<>();
        for (int s = 0; s < data.getRowCount(); s++) {
            names.add(String.valueOf(data.getRowKey(s)));
        }
        List<Color> paints = colours(names);
        for (int s = 0; s < paints.size(); s++) {
            bars.setSeriesPaint(s, paints.get(s));
        }
    }

    private static void styleLines(XYPlot plot) {
        plot.setBackgroundPaint(Color.WHITE);
        plot.setOutlineVisible(false);
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        plot.setDomainGridlinePaint(new Color(0xDDDDDD));
        XYItemRenderer lines = plot.getRenderer();
        XYDataset data = plot.getDataset();
        List<String> names = new java.util.ArrayList<>();
        for (int s = 0; s < data.getSeriesCount(); s++) {
            names.add(String.valueOf(data.getSeriesKey(s)));
        }
        List<Color> paints = colours(names);
        for (int s = 0; s < paints.size(); s++) {
            lines.setSeriesPaint(s, paints.get(s));
            lines.setSeriesStroke(s, new BasicStroke(2f));
        }
    }
}
