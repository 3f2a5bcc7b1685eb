package wsjava.bench.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import wsjava.redis.LocalRedis;

/** The fan-out harness end to end with tiny runs: every delivery checked, every file written. Numbers are not checked. */
@Tag("harness")      // a harness's smoke run: ./wsjava test --all, as CI runs it
class FanoutBenchSmokeTest {

    @Test
    void everySetupDeliversToEverySubscriber(@TempDir Path out) throws Exception {
        if (!LocalRedis.available() && "1".equals(System.getenv("WSJAVA_REQUIRE_ALL_TOOLS"))) {
            fail("redis-server is missing, and WSJAVA_REQUIRE_ALL_TOOLS=1 forbids skipping");
        }
        assertTrue(FanoutBench.run(List.of("--smoke", "--out", out.toString())), "a delivery was wrong or lost");
        List<String> rows = Files.readAllLines(out.resolve("fanout.csv"));
        assertEquals(1 + 2 * FanoutBench.SETUPS.size(), rows.size(), String.join("\n", rows));
        for (String row : rows.subList(1, rows.size())) {
            assertFalse(row.contains("skipped") && LocalRedis.available(), row);
        }
        assertTrue(Files.size(out.resolve("fanout.png")) > 1000);
        assertTrue(Files.size(out.resolve("fanout-latency.png")) > 1000);
    }
}
