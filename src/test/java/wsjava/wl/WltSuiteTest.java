package wsjava.wl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import wsjava.testing.ExternalTools;

/**
 * The paclet's .wlt files, one per Kernel file, run for real through wolframscript when it is on
 * PATH. Without it each is reported NOT RUN (skipped, by name): never counted as passed.
 */
class WltSuiteTest {

    private static final Path PACLET = ExternalTools.PROJECT.resolve("paclet/WSJava");

    static List<Path> wltFiles() throws Exception {
        try (Stream<Path> files = Files.list(PACLET.resolve("Tests"))) {
            return files.filter(p -> p.toString().endsWith(".wlt")).sorted().collect(Collectors.toList());
        }
    }

    @Test
    void everyKernelFileHasItsTestFile() throws Exception {
        try (Stream<Path> kernel = Files.list(PACLET.resolve("Kernel"))) {
            List<String> expected = kernel.map(p -> p.getFileName().toString().replace(".wl", ".wlt")).sorted().collect(Collectors.toList());
            List<String> actual = wltFiles().stream().map(p -> p.getFileName().toString()).collect(Collectors.toList());
            assertEquals(expected, actual, "one .wlt per Kernel file");
        }
    }

    @TestFactory
    Stream<DynamicTest> wltFilesRunWithWolframscript() throws Exception {
        return wltFiles().stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> run(file)));
    }

    static int verificationTests(Path file) {
        try {
            String text = Files.readString(file);
            int n = 0;
            for (int i = text.indexOf("VerificationTest["); i >= 0; i = text.indexOf("VerificationTest[", i + 1)) {
                n++;
            }
            return n;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void run(Path file) {
        if (!ExternalTools.onPath("wolframscript")) {
            System.out.println("NOT RUN: " + file.getFileName() + " (wolframscript is not on PATH)");
            Assumptions.abort("NOT RUN: " + file.getFileName() + " needs wolframscript, which is not on PATH");
        }
        assertTrue(Files.isDirectory(PACLET.resolve("Java")), "paclet/WSJava/Java is filled by mvn package; run it first");
        // PacletDirectoryLoad takes the folder that holds paclet folders, as the examples use it.
        String code = "PacletDirectoryLoad[\"" + PACLET.getParent() + "\"]; r = TestReport[\"" + file + "\", TimeConstraint -> 120]; "
                + "Print[\"succeeded=\", r[\"TestsSucceededCount\"], \" failed=\", r[\"TestsFailedCount\"]]; "
                + "Exit[If[TrueQ[r[\"AllTestsSucceeded\"]], 0, 1]]";
        ExternalTools.Result r = ExternalTools.run(List.of("wolframscript", "-code", code), 600);
        System.out.print(r.output);
        assertEquals(0, r.exitCode, r.output);
        // A file that stops part way reports fewer tests: count them against the file itself.
        int written = verificationTests(file);
        assertTrue(r.output.contains("succeeded=" + written + " "), "every one of the " + written + " tests ran: " + r.output);
    }
}
