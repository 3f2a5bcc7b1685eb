package wsjava.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import wsjava.testing.ExternalTools;

/** Node's `ws` (npm) against the echo server: 0 B to 16 MiB, fragmented too, with permessage-deflate agreed and without, and over wss:// with deflate. */
class NodeClientInteropTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"deflate", "plain", "tls"})
    void nodeWsEchoesEverything(String mode) throws Exception {
        ExternalTools.require(ExternalTools.nodeWs(), "node with the npm package ws (src/test/node)");
        ExternalTools.Result r = ExternalTools.runClientAgainstEchoServer(List.of("node", ExternalTools.PROJECT.resolve("src/test/node/interop_client.js").toString(), mode), mode.equals("tls"));
        assertEquals(0, r.exitCode, r.output);
        assertTrue(r.output.contains("bad=0"), r.output);
        assertTrue(r.output.contains(mode.equals("plain") ? "extensions=\n" : "extensions=permessage-deflate"), r.output);
    }
}
