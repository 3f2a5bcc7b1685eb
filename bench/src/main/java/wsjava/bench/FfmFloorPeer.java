package wsjava.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The floors in Java with a transport of their own through FFM: on epoll
 * ({@code bench/java22/FfmFloor.java}) and on io_uring ({@code bench/java22/UringFloor.java}). They
 * need JDK 22 or later, and the bench module builds on 17, so the sources stay out of the Maven
 * build. On first use this compiles them with the newest JDK's javac (WSJAVA_BENCH_JDK names one;
 * else the newest under /usr/lib/jvm, or the running JDK) against the bench's classes, and runs one
 * on that JDK with the Java servers' heap flags. Without a JDK 22 it is reported as not run.
 */
final class FfmFloorPeer {

    static final String NAME = "FfmFloor";
    static final String URING = "UringFloor";
    static final int FEATURE = 22;

    private FfmFloorPeer() {
    }

    /** The floor {@code floor} ({@link #NAME} or {@link #URING}), or null (with the reason printed) when there is no JDK 22 or later. */
    static EchoBench.Peer build(Path dir, String floor) throws IOException, InterruptedException {
        Path jdk = jdk();
        if (jdk == null) {
            System.out.println(floor + ": not run (" + whyNot() + ")");
            return null;
        }
        Path classes = dir.resolve("ffm-floor");
        compile(jdk, classes);
        List<String> command = new ArrayList<>(List.of(jdk.resolve("bin/java").toString()));
        command.addAll(NewerJdkPeer.heapFlags());
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED",
                "-cp", classes + java.io.File.pathSeparator + System.getProperty("java.class.path"), floor));
        return EchoBench.nativePeer(name(floor, jdk), command);
    }

    /** The row's name on {@code jdk}: "FfmFloor (JDK 25)". */
    static String name(String floor, Path jdk) {
        return floor + " (JDK " + NewerJdkPeer.feature(jdk) + ")";
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

    /** Compiles {@code bench/java22} into {@code classes}; a compiler error throws (the sources are ours: a bug, not a missing tool). */
    private static void compile(Path jdk, Path classes) throws IOException, InterruptedException {
        Path source = CLoadClient.projectRoot().resolve("bench/java22");
        Files.createDirectories(classes);
        List<String> command = new ArrayList<>(List.of(jdk.resolve("bin/javac").toString(), "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path")));
        try (java.util.stream.Stream<Path> files = Files.list(source)) {
            files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> command.add(f.toString()));
        }
        Process javac = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (javac.waitFor() != 0) {
            throw new IOException("javac failed on " + source + ":\n" + output);
        }
    }
}
