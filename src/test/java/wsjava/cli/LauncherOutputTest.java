package wsjava.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a user of ./wsjava sees: the JVM's stderr without its incubator warning, Maven's output without escapes. */
@Timeout(120)
class LauncherOutputTest {

    private static final String INCUBATOR_WARNING = "WARNING: Using incubator modules: jdk.incubator.vector";

    private static final class Run {
        final int exitCode;
        final String stdout;
        final String stderr;

        Run(int exitCode, String stdout, String stderr) {
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
        }
    }

    private static Run run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
        String out = readAll(p.getInputStream());
        assertTrue(p.waitFor(100, TimeUnit.SECONDS), "finished: " + command);
        return new Run(p.exitValue(), out, err.get());
    }

    private static String readAll(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The CLI with the Vector API's module, asked for something it refuses: its error goes to stderr, exit code 2. */
    private static List<String> refusedServe() {
        return new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules", "jdk.incubator.vector", "-cp", System.getProperty("java.class.path"),
                "wsjava.cli.Main", "serve", "--no-such-option", "x"));
    }

    @Test
    void theFilterDropsExactlyTheIncubatorWarningAndKeepsTheExitCode() throws Exception {
        Assumptions.assumeTrue(java.lang.module.ModuleFinder.ofSystem().find("jdk.incubator.vector").isPresent(),
                "this JDK has no Vector API module, so there is no warning to filter");
        Run plain = run(refusedServe());
        assertTrue(plain.stderr.contains(INCUBATOR_WARNING), "the JVM prints the warning: " + plain.stderr);

        List<String> filtered = refusedServe();
        filtered.add(0, Path.of("scripts", "without-incubator-warning.sh").toAbsolutePath().toString());
        Run quiet = run(filtered);
        assertFalse(quiet.stderr.contains(INCUBATOR_WARNING), quiet.stderr);
        assertEquals(plain.stderr.replace(INCUBATOR_WARNING + "\n", ""), quiet.stderr, "everything else passes through");
        assertTrue(quiet.stderr.contains("serve: "), quiet.stderr);
        assertEquals(plain.exitCode, quiet.exitCode);
        assertEquals(2, quiet.exitCode);
        assertEquals(plain.stdout, quiet.stdout);
    }

    @Test
    void everyJvmTheLauncherStartsGoesThroughTheFilter() throws IOException {
        for (String line : Files.readAllLines(Path.of("wsjava"))) {
            if (line.trim().startsWith("exec") && line.contains("\"$JAVA\"")) {
                assertTrue(line.trim().startsWith("exec \"$QUIET\" "), line);
            }
        }
    }

    @Test
    void theServeFlagsAreTheOnesDocsServerMdMeasured() throws IOException {
        String launcher = Files.readString(Path.of("wsjava"));
        java.util.regex.Matcher flags = java.util.regex.Pattern.compile("\nSERVE_FLAGS=\"([^\"]*)\"").matcher(launcher);
        assertTrue(flags.find(), "the launcher sets SERVE_FLAGS");
        assertTrue(Files.readString(Path.of("docs", "server.md")).contains("\n    " + flags.group(1) + "\n"),
                "docs/server.md shows the flags its figures were measured with: " + flags.group(1));
    }

    @Test
    void mavenAsTheLauncherRunsItWritesNoEscapeSequences() throws Exception {
        Run maven = run(List.of(Path.of("scripts", "maven.sh").toAbsolutePath().toString(), "-q", "-N", "validate"));
        assertEquals(0, maven.exitCode, maven.stdout + maven.stderr);
        assertFalse((maven.stdout + maven.stderr).contains("\u001b"), "escapes in: " + (maven.stdout + maven.stderr));
    }
}
