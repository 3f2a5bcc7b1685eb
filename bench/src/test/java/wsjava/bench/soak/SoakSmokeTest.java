package wsjava.bench.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A short chaos run: its verdicts must hold even at this size, and the leak check must be able to say no. */
@Timeout(300)
class SoakSmokeTest {

    @Test
    void aShortChaosRunLosesNothingAndKeepsEveryThread(@TempDir Path out) throws Exception {
        SoakBench.Outcome o = SoakBench.run(List.of("--smoke", "--seconds", "6", "--out", out.toString()));
        assertTrue(o.echoed > 0, "nothing was echoed");
        assertEquals(0, o.lost, "lost");
        assertEquals(0, o.duplicated, "duplicated");
        assertEquals(0, o.reordered, "reordered");
        assertEquals(0, o.wrongAnswers, "wrong answers to misbehaviour");
        assertEquals(0, o.threadDeaths, "I/O thread deaths");
        assertTrue(o.serverServesAfterwards, "the server still serves");
        assertTrue(o.failures.isEmpty(), String.join("\n", o.failures));
        assertTrue(Files.size(out.resolve("soak-rss.png")) > 1000);
        assertEquals(7, Files.readAllLines(out.resolve("soak-rss.csv")).size(), "a header and one row a second");
    }

    @Test
    void memoryThatKeepsGrowingDoesNotLevelOff() {
        List<List<String>> growing = new ArrayList<>();
        List<List<String>> flat = new ArrayList<>();
        for (int s = 1; s <= 30; s++) {
            growing.add(List.of(Integer.toString(s), Double.toString(100 + 10.0 * s), "0"));
            flat.add(List.of(Integer.toString(s), Double.toString(s < 5 ? 100 + 20 * s : 190 + (s % 3)), "0"));
        }
        assertFalse(SoakBench.levelsOff(growing));
        assertTrue(SoakBench.levelsOff(flat));
    }
}
