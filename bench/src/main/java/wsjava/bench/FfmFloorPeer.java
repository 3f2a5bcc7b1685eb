package wsjava.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor in Java with a transport of its own through FFM ({@code bench/java22/FfmFloor.java}):
 * it needs JDK 22 or later, and the bench module builds on 17, so the source stays out of the Maven
 * build. On first use this compiles it with the newest JDK's javac (WSJAVA_BENCH_JDK names one; else
 * the newest under /usr/lib/jvm, or the running JDK) against the bench's classes, and runs it on that
 * JDK with the Java servers' heap flags. Without a JDK 22 it is reported as not run.
 */
final class FfmFloorPeer {

    static final String NAME = "FfmFloor";
    static final int FEATURE = 22;

    private FfmFloorPeer() {
    }

    /** The peer, or null (with the reason printed) when there is no JDK 22 or later. */
    static EchoBench.Peer build(Path dir) throws IOException, InterruptedException {
        Path jdk = jdk();
        if (jdk == null) {
            System.out.println(NAME + ": not run (" + whyNot() + ")");
            return null;
        }
        Path classes = dir.resolve("ffm-floor");
        compile(jdk, classes);
        List<String> command = new ArrayList<>(List.of(jdk.resolve("bin/java").toString()));
        command.addAll(NewerJdkPeer.heapFlags());
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED",
                "-cp", classes + java.io.File.pathSeparator + System.getProperty("java.class.path"), "FfmFloor"));
        return EchoBench.nativePeer(name(jdk), command);
    }

    /** The row's name on {@code jdk}: "FfmFloor (JDK 25)". */
    static String name(Path jdk) {
        return NAME + " (JDK " + NewerJdkPeer.feature(jdk) + ")";
    }

    /** The home of a JDK 22 or later with a javac, or null. */
    static Path jdk() {
        Path found = NewerJdkPeer.newestFrom(FEATURE);
        if (found == null && Runtime.version().feature() >= FEATURE) {
            found = Path.of(System.getProperty("java.home"));
        }
        return found != null && Files.isExecutable(found.resolve("bin/javac")) ? found : null;
    }

    /** Why {@link #jdk()} found none. */
    static String whyNot() {
        String chosen = System.getenv(NewerJdkPeer.VARIABLE);
        return chosen == null || chosen.isEmpty()
                ? "it needs a JDK " + FEATURE + " or later with javac: none under /usr/lib/jvm, and this one is " + Runtime.version().feature()
                        + "; " + NewerJdkPeer.VARIABLE + " names one"
                : NewerJdkPeer.VARIABLE + "=" + chosen + " is not a JDK " + FEATURE + " or later with javac";
    }

    /** Compiles FfmFloor.java into {@code classes}; a compiler error throws (the source is ours: a bug, not a missing tool). */
    private static void compile(Path jdk, Path classes) throws IOException, InterruptedException {
        Path source = CLoadClient.projectRoot().resolve("bench/java22/FfmFloor.java");
        Files.createDirectories(classes);
        Process javac = new ProcessBuilder(jdk.resolve("bin/javac").toString(), "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path"), source.toString()).redirectErrorStream(true).start();
        String output = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (javac.waitFor() != 0) {
            throw new IOException("javac failed on " + source + ":\n" + output);
        }
    }
}
