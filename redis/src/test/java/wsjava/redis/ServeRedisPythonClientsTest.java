package wsjava.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code ./wsjava serve --redis URL} with real parts only: two servers in their own JVMs, one real
 * redis-server, and a Python {@code websockets} client on each server at {@code /topics/NAME}, as
 * examples/topic.html subscribes. What either client publishes reaches both clients exactly once,
 * in order, text and binary; the clients' checks are in src/test/python/fanout_clients.py.
 */
@Timeout(180)
class ServeRedisPythonClientsTest {

    private static final Path CLIENTS = Path.of("src/test/python/fanout_clients.py").toAbsolutePath();

    @Test
    void eachPythonClientGetsEveryPublishOfBothServersExactlyOnce() throws Exception {
        RequiredTool.redisServer();
        RequiredTool.pythonWebsockets();
        try (LocalRedis redis = LocalRedis.start()) {
            String redisUrl = "redis://127.0.0.1:" + redis.port();
            try (ServeProcess a = ServeProcess.serve("--redis", redisUrl);
                 ServeProcess b = ServeProcess.serve("--redis", redisUrl)) {
                Path log = Files.createTempFile("wsjava-fanout-clients", ".log");
                try {
                    Process clients = new ProcessBuilder(RequiredTool.PYTHON, CLIENTS.toString(), a.url(), b.url(), "demo")
                            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
                    boolean exited = clients.waitFor(120, TimeUnit.SECONDS);
                    if (!exited) {
                        clients.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    }
                    String said = Files.readString(log, StandardCharsets.UTF_8);
                    System.out.print(said);
                    assertTrue(exited, "the Python clients finish in 120 s:\n" + said);
                    assertEquals(0, clients.exitValue(), "the Python clients:\n" + said
                            + "\nserver A said:\n" + a.output() + "server B said:\n" + b.output());
                    assertTrue(said.contains(" fan-out: ") && said.contains("bad=0"), said);
                } finally {
                    Files.deleteIfExists(log);
                }
            }
        }
    }
}
