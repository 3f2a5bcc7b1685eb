package wsjava.wl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import wsjava.testing.ExternalTools;

/** Every .wl, .wls, .wlt, .wln (and its cells' code) parses with Symja's Mathematica-syntax parser. */
class WlSyntaxTest {

    @Test
    void thereAreWlFilesToCheck() {
        assertFalse(WlSources.files().isEmpty(), "no WL sources found under " + WlSources.ROOTS);
    }

    @TestFactory
    Stream<DynamicTest> everyWlFileParses() {
        return WlSources.files().stream().map(file -> DynamicTest.dynamicTest(
                ExternalTools.PROJECT.relativize(file).toString(), () -> check(file)));
    }

    private static void check(Path file) {
        String source = WlSources.read(file);
        try {
            WlSources.parse(source);
        } catch (RuntimeException e) {
            fail(file + ": " + e.getMessage());
        }
        if (file.toString().endsWith(".wln")) {
            List<String> cells = WlSources.notebookCode(source);
            for (int i = 0; i < cells.size(); i++) {
                try {
                    WlSources.parse(cells.get(i));
                } catch (RuntimeException e) {
                    fail(file + ", code cell " + (i + 1) + ": " + e.getMessage());
                }
            }
        }
    }

    @Test
    void theParserRejectsBrokenCode() {
        // The check can fail: an unbalanced bracket is reported.
        try {
            WlSources.parse("f[x_] := g[x");
        } catch (RuntimeException expected) {
            return;
        }
        fail("Symja accepted an unbalanced bracket");
    }
}
