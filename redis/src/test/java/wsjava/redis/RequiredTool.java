package wsjava.redis;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real programs the end-to-end tests drive. A missing one skips the test with its name, unless
 * WSJAVA_REQUIRE_ALL_TOOLS=1 (set by CI), where it fails instead.
 */
final class RequiredTool {

    static final String PYTHON = "/usr/bin/python3";

    private RequiredTool() {
    }

    static void redisServer() {
        require(LocalRedis.available(), "redis-server");
    }

    static void pythonWebsockets() {
        require(Files.isExecutable(Path.of(PYTHON)) && exitsZero(PYTHON, "-c", "import websockets"), "python3-websockets");
    }

    private static void require(boolean present, String what) {
        if (present) {
            return;
        }
        if ("1".equals(System.getenv("WSJAVA_REQUIRE_ALL_TOOLS"))) {
            fail(what + " is missing, and WSJAVA_REQUIRE_ALL_TOOLS=1 forbids skipping");
        }
        Assumptions.abort("skipped: " + what + " is not installed (scripts/install-test-tools.sh installs it)");
    }

    private static boolean exitsZero(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
