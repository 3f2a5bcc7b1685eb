package wsjava.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.time.LocalDate;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every chart: white, one colour per system whatever its place in the chart, values on the bars, machine and date. */
class ChartStyleTest {

    @Test
    void aSystemHasOneColourWhereverItStands() {
        assertEquals(ChartStyle.colour("WSJava", 0), ChartStyle.colour("WSJava", 4));
        assertEquals(ChartStyle.colour("Netty", 1), ChartStyle.colour("Netty", 2));
        assertNotEquals(ChartStyle.colour("Netty", 1), ChartStyle.colour("Netty (epoll)", 1));
        assertNotEquals(ChartStyle.colour("WSJava", 0), ChartStyle.colour("uWebSockets", 0));
        assertEquals(ChartStyle.colour("WSJava", 0), ChartStyle.colour("java-wsjava-simd-256", 3), "a variant keeps its system's colour");
        java.util.List<Color> shades = ChartStyle.colours(java.util.List.of("java-wsjava-scalar", "java-wsjava-simd", "node-ws-js"));
        assertEquals(ChartStyle.colour("WSJava", 0), shades.get(0));
        assertNotEquals(shades.get(0), shades.get(1), "a second WSJava series is a lighter shade, still told apart");
    }

    @Test
    void aSavedChartIsWhiteWithValuesColoursAndItsMachine(@TempDir Path dir) throws Exception {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        data.addValue(150.7, "uWebSockets", "64 B");
        data.addValue(140.1, "WSJava", "64 B");
        JFreeChart chart = ChartFactory.createBarChart("test", "size", "round trips per second, in thousands", data,
                PlotOrientation.VERTICAL, true, false, false);
        Path file = dir.resolve("c.png");
        ChartStyle.save(chart, file);
        BarRenderer bars = (BarRenderer) chart.getCategoryPlot().getRenderer();
        assertEquals(ChartStyle.colour("WSJava", 0), bars.getSeriesPaint(1), "WSJava's colour although it is the second series");
        assertTrue(bars.getDefaultItemLabelsVisible(), "values on the bars");
        String subtitle = ((TextTitle) chart.getSubtitle(chart.getSubtitleCount() - 1)).getText();
        assertTrue(subtitle.contains(LocalDate.now().toString()) && subtitle.contains("cores"), subtitle);
        BufferedImage image = ImageIO.read(file.toFile());
        assertEquals(Color.WHITE.getRGB(), image.getRGB(2, 2), "a white background");
    }
}
