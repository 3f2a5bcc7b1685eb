package wsjava.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import wsjava.testing.ExternalTools;

/** Node's `ws` (npm) against the echo server: 0 B to 16 MiB, fragmented too. */
class NodeClientInteropTest {

    @Test
    void nodeWsEchoesEverything() throws Exception {
        ExternalTools.require(ExternalTools.nodeWs(), "node with the npm package ws (src/test/node)");
        ExternalTools.Result r = ExternalTools.runClientAgainstEchoServer(List.of("node", ExternalTools.PROJECT.resolve("src/test/node/interop_client.js").toString()));
        assertEquals(0, r.exitCode, r.output);
        assertTrue(r.output.contains("bad=0"), r.output);
    }
}
