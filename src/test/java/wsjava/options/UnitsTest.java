package wsjava.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.server.ServerConfig;

/** Sizes and times with units, in the options the CLI and WL share. */
@Timeout(10)
class UnitsTest {

    @Test
    void sizesTakeBinaryUnits() {
        assertEquals(16L << 20, Units.bytes("max-message", "16MiB"));
        assertEquals(512L << 10, Units.bytes("x", "512KiB"));
        assertEquals(2L << 30, Units.bytes("x", "2GiB"));
        assertEquals(4096, Units.bytes("x", "4096"));
        assertEquals(4096, Units.bytes("x", "4096B"));
        assertEquals(1L << 20, Units.bytes("x", "1mib"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Units.bytes("max-message", "16MB")).getMessage()
                .startsWith("max-message needs a size such as 16MiB"));
        assertThrows(IllegalArgumentException.class, () -> Units.bytes("x", "-1"));
        assertThrows(IllegalArgumentException.class, () -> Units.bytesInt("x", "2GiB"));
        assertThrows(IllegalArgumentException.class, () -> Units.bytes("x", "99999999999GiB"));
    }

    @Test
    void timesTakeUnitsAndABareNumberIsMilliseconds() {
        assertEquals(30_000, Units.millis("x", "30s"));
        assertEquals(500, Units.millis("x", "500ms"));
        assertEquals(120_000, Units.millis("x", "2m"));
        assertEquals(3_600_000, Units.millis("x", "1h"));
        assertEquals(250, Units.millis("x", "250"));
        assertThrows(IllegalArgumentException.class, () -> Units.millis("x", "1d"));
    }

    @Test
    void sizesAndTimesPrintWithUnits() {
        assertEquals("16MiB", Units.formatBytes(16L << 20));
        assertEquals("512KiB", Units.formatBytes(512L << 10));
        assertEquals("753.4MiB", Units.formatBytes(790003712L));
        assertEquals("100B", Units.formatBytes(100));
        assertEquals("30s", Units.formatMillis(30_000));
        assertEquals("1500ms", Units.formatMillis(1_500));
    }

    @Test
    void serverOptionsTakeUnits() {
        ServerConfig config = new ServerConfig();
        ServerOptions.applyAll(config, List.of("max-message", "inbound-budget", "close-timeout", "compression-idle-release"),
                List.of("512KiB", "64MiB", "2s", "1m"));
        assertEquals(512 * 1024, config.maxMessageSize());
        assertEquals(64L << 20, config.inboundBudgetBytes());
        assertEquals(2_000, config.closeTimeoutMillis());
        assertEquals(60_000, config.compression().idleReleaseMillis());
    }

    @Test
    void aMissingTlsFileIsNamedWithTheReason() {
        String missing = Path.of(System.getProperty("java.io.tmpdir"), "wsjava-no-such-cert.pem").toString();
        String message = assertThrows(IllegalArgumentException.class, () -> ServerOptions.applyAll(new ServerConfig(),
                List.of("tls-cert", "tls-key"), List.of(missing, missing))).getMessage();
        assertEquals("--tls-cert " + missing + ": no such file", message);
        String folder = System.getProperty("java.io.tmpdir");
        message = assertThrows(IllegalArgumentException.class, () -> ServerOptions.applyAll(new ServerConfig(),
                List.of("tls-keystore"), List.of(folder))).getMessage();
        assertEquals("--tls-keystore " + folder + ": it is a folder, not a file", message);
    }
}
