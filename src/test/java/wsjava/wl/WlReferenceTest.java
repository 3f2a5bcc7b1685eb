package wsjava.wl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/wl-reference.md is what the paclet's sources say today, and the generator reads them faithfully. */
class WlReferenceTest {

    @Test
    void theCommittedReferenceIsNotStale() throws IOException {
        String fresh = WlReference.generate(WlReference.KERNEL);
        if (Boolean.getBoolean("wsjava.regenerate")) {
            Files.writeString(WlReference.OUTPUT, fresh);
        }
        assertTrue(Files.exists(WlReference.OUTPUT), "docs/wl-reference.md is missing: run ./wsjava wl-reference");
        assertEquals(fresh, Files.readString(WlReference.OUTPUT),
                "docs/wl-reference.md is stale: run ./wsjava wl-reference and commit the result");
    }

    @Test
    void itListsUsageOptionsDefaultsAndFailures() throws IOException {
        String ref = WlReference.generate(WlReference.KERNEL);
        assertTrue(ref.contains("### WSJavaListen\n\nWSJavaListen[port] starts a WebSocket server"), "usage");
        assertTrue(ref.contains("| `\"Page\"` | `Automatic` | Automatic (the demo page at GET /), None,"), "an option's meaning, from its comment");
        assertTrue(ref.contains("| `\"DrainInterval\"` | `0.01` |"), "an option with its default");
        assertTrue(ref.contains("| `HandlerFunctions` | `<||>` |") || ref.contains("| `HandlerFunctions` | `<\\|\\|>` |"), "a symbol option");
        int listen = ref.indexOf("### WSJavaListen");
        String entry = ref.substring(listen, ref.indexOf("### ", listen + 4));
        assertTrue(entry.contains("`Failure[\"WSJavaUnknownOption\", ...]`") && entry.contains("`Failure[\"WSJavaBadOption\", ...]`")
                && entry.contains("`Failure[\"WSJavaBadArguments\", ...]`"), entry);
        assertTrue(ref.contains("| `WSJava::notopen` | `1` is not open. |"), "messages");
        assertTrue(ref.contains("## WSJava`WLJS`") && ref.contains("### WebSocketUHandler"), "the drop-in context");
    }

    /** A planted change to a Kernel file shows in the reference: it cannot go stale unnoticed. */
    @Test
    void aChangedOptionDefaultChangesTheReference(@TempDir Path kernel) throws IOException {
        try (var files = Files.list(WlReference.KERNEL)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.copy(p, kernel.resolve(p.getFileName()));
            }
        }
        String before = WlReference.generate(kernel);
        Path server = kernel.resolve("Server.wl");
        Files.writeString(server, Files.readString(server).replace("\"MaxConnections\" -> 20000", "\"MaxConnections\" -> 100"));
        String after = WlReference.generate(kernel);
        assertTrue(!before.equals(after) && after.contains("| `\"MaxConnections\"` | `100` |"), "the new default is listed");
    }
}
