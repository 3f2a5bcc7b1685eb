package wsjava.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

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
     * Grouped horizontal bars on a log scale: one group per {@code groups} entry, one bar per
     * series. {@code values[g][s]} may be NaN for a variant that did not run.
     */
    public static void barChart(Path file, String title, String unit, List<String> groups, List<String> series,
                                double[][] values) throws IOException {
        int barH = 14;
        int groupGap = 16;
        int left = 190;
        int width = 1000;
        int height = 70 + groups.size() * (series.size() * barH + groupGap) + 20 * series.size();
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, 10, 22);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        double min = Double.MAX_VALUE;
        double max = 0;
        for (double[] row : values) {
            for (double v : row) {
                if (v > 0 && !Double.isNaN(v)) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        double lo = Math.floor(Math.log10(min));
        double hi = Math.ceil(Math.log10(max) + 0.01);
        int plotW = width - left - 120;
        Color[] palette = {new Color(0x4E79A7), new Color(0xF28E2B), new Color(0xE15759), new Color(0x76B7B2),
            new Color(0x59A14F), new Color(0xEDC948), new Color(0xB07AA1), new Color(0xFF9DA7), new Color(0x9C755F)};
        int y = 40;
        for (int gi = 0; gi < groups.size(); gi++) {
            g.setColor(Color.BLACK);
            g.drawString(groups.get(gi), 10, y + series.size() * barH / 2 + 4);
            for (int si = 0; si < series.size(); si++) {
                double v = values[gi][si];
                g.setColor(palette[si % palette.length]);
                if (v > 0 && !Double.isNaN(v)) {
                    int w = (int) Math.max(1, plotW * (Math.log10(v) - lo) / (hi - lo));
                    g.fillRect(left, y, w, barH - 2);
                    g.setColor(Color.DARK_GRAY);
                    g.drawString(String.format(Locale.ROOT, "%.3g %s", v, unit), left + w + 4, y + barH - 4);
                } else {
                    g.setColor(Color.GRAY);
                    g.drawString("did not run", left + 4, y + barH - 4);
                }
                y += barH;
            }
            y += groupGap;
        }
        g.setStroke(new BasicStroke(1));
        for (int si = 0; si < series.size(); si++) {
            g.setColor(palette[si % palette.length]);
            g.fillRect(left, y + si * 20, 12, 12);
            g.setColor(Color.BLACK);
            g.drawString(series.get(si), left + 18, y + si * 20 + 11);
        }
        g.drawString("log scale, " + unit + " (shorter is faster)", width - 260, y + 11);
        g.dispose();
        Files.createDirectories(file.toAbsolutePath().getParent());
        ImageIO.write(image, "png", file.toFile());
    }

    public static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
