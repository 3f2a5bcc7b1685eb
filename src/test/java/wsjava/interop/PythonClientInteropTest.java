package wsjava.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import wsjava.server.EchoListener;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;
import wsjava.testing.ExternalTools;

/** Python's `websockets` (Debian python3-websockets) against the echo server: 0 B to 16 MiB, fragmented too. */
class PythonClientInteropTest {

    @Test
    void pythonWebsocketsEchoesEverything() throws Exception {
        ExternalTools.require(ExternalTools.pythonWebsockets(), "python3-websockets");
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        try {
            ExternalTools.Result r = ExternalTools.run(List.of(ExternalTools.SYSTEM_PYTHON,
                    ExternalTools.PROJECT.resolve("src/test/python/interop_client.py").toString(), server.url()), 180);
            System.out.print(r.output);
            assertEquals(0, r.exitCode, r.output);
            assertTrue(r.output.contains("bad=0"), r.output);
        } finally {
            server.stop();
        }
    }
}
