package wsjava.bench.deflate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compressed echo harness end to end with tiny sizes: every server agrees to deflate and
 * echoes verified messages, the memory table is filled, the chart is drawn. Numbers are not checked.
 */
@Tag("harness")      // a harness's smoke run: ./wsjava test --all, as CI runs it
class DeflateBenchSmokeTest {

    @Test
    void everyServerAgreesToDeflateAndEchoes(@TempDir Path out) throws Exception {
        assertTrue(DeflateBench.run(List.of("--smoke", "--out", out.toString())), "an echo was wrong or missing");
        List<String> rows = Files.readAllLines(out.resolve("deflate.csv"));
        assertEquals(1 + 3, rows.size(), String.join("\n", rows));
        for (String row : rows.subList(1, rows.size())) {
            assertTrue(row.endsWith(","), "a note (deflate not agreed, an error) on: " + row);
        }
        List<String> memory = Files.readAllLines(out.resolve("deflate-memory.csv"));
        assertEquals(1 + 6, memory.size(), String.join("\n", memory));
        for (String row : memory.subList(1, memory.size())) {
            assertTrue(row.contains(",50,"), "50 connections held: " + row);
        }
        assertTrue(Files.size(out.resolve("deflate.png")) > 1000);
    }
}
