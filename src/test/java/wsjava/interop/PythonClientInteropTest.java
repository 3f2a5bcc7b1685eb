package wsjava.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import wsjava.testing.ExternalTools;

/** Python's `websockets` (Debian python3-websockets) against the echo server: 0 B to 16 MiB, fragmented too, with permessage-deflate agreed and without, and over wss:// with deflate. */
class PythonClientInteropTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"deflate", "plain", "tls"})
    void pythonWebsocketsEchoesEverything(String mode) throws Exception {
        ExternalTools.require(ExternalTools.pythonWebsockets(), "python3-websockets");
        ExternalTools.Result r = ExternalTools.runClientAgainstEchoServer(List.of(ExternalTools.SYSTEM_PYTHON, ExternalTools.PROJECT.resolve("src/test/python/interop_client.py").toString(), mode), mode.equals("tls"));
        assertEquals(0, r.exitCode, r.output);
        assertTrue(r.output.contains("bad=0"), r.output);
        assertTrue(r.output.contains(mode.equals("plain") ? "extensions=\n" : "extensions=permessage-deflate"), r.output);
    }
}
