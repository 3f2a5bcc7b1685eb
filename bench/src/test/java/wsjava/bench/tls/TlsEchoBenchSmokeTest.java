package wsjava.bench.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wss:// echo harness end to end with tiny runs: both servers echo verified messages over TLS. */
@Tag("harness")      // a harness's smoke run: ./wsjava test --all, as CI runs it
class TlsEchoBenchSmokeTest {

    @Test
    void bothServersEchoOverTls(@TempDir Path out) throws Exception {
        assertTrue(TlsEchoBench.run(List.of("--smoke", "--out", out.toString())), "an echo was wrong or missing");
        List<String> rows = Files.readAllLines(out.resolve("tls.csv"));
        assertEquals(1 + 2, rows.size(), String.join("\n", rows));
        assertTrue(Files.notExists(out.resolve("tls-bench-key.pem")), "the throwaway key is deleted");
    }
}
