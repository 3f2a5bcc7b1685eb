package wsjava.bench.attack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attack suite at smoke size, in the build: every attack of issue 20 against a fresh server
 * JVM under -Xmx128m and under the default heap, and every bound the README promises must hold
 * (the server alive and serving afterwards, its heap, a bystander's latency, the per-attack checks).
 */
@Timeout(600)
class AttackSmokeTest {

    @Test
    void everyAttackStaysWithinItsBounds(@TempDir Path out) throws Exception {
        AttackBench.Outcome outcome = AttackBench.run(List.of("--smoke", "--out", out.toString()));
        assertTrue(outcome.passed(), "bounds that did not hold:\n" + String.join("\n", outcome.failures));
        assertEquals(2 * AttackBench.ATTACKS.size(), outcome.rows.size(), "every attack under both heaps");
        assertTrue(Files.readAllLines(out.resolve("attack.csv")).size() == outcome.rows.size() + 1);
        assertTrue(Files.size(out.resolve("attack-heap.png")) > 1000);
        assertTrue(Files.size(out.resolve("attack-latency.png")) > 1000);
    }
}
