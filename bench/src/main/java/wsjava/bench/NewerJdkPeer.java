package wsjava.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * WSJava once more in the head-to-head, on the newest JDK this machine has when it is newer than
 * the one running the bench (WSJAVA_BENCH_JDK names one; else the newest under /usr/lib/jvm): the
 * same jar and flags, so the row shows what the JDK alone changes (on 2026-12-01, Temurin 25 beside
 * OpenJDK 17: 14% more messages at 16 KiB, in one quick alternating run).
 */
final class NewerJdkPeer {

    static final String VARIABLE = "WSJAVA_BENCH_JDK";
    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    private NewerJdkPeer() {
    }

    /** The peer, or null (with the reason printed) when there is no newer JDK. */
    static EchoBench.Peer find(EchoBench.Peer wsjava) throws IOException {
        Path best = newest();
        if (best == null) {
            System.out.println("WSJava on a newer JDK: not run (none newer than " + Runtime.version().feature() + "; " + VARIABLE + " names one)");
            return null;
        }
        int bestVersion = feature(best);
        List<String> command = new ArrayList<>(List.of(best.resolve("bin/java").toString()));
        command.addAll(EchoBench.JVM_FLAGS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), wsjava.mainClass));
        command.addAll(wsjava.args);
        return EchoBench.nativePeer(wsjava.name + " (JDK " + bestVersion + ")", command);
    }

    /** The home of the newest JDK newer than the running one, or null. */
    static Path newest() throws IOException {
        Path best = null;
        int bestVersion = Runtime.version().feature();
        for (Path home : candidates()) {
            int version = feature(home);
            if (version > bestVersion && Files.isExecutable(home.resolve("bin/java"))) {
                best = home;
                bestVersion = version;
            }
        }
        return best;
    }

    private static List<Path> candidates() throws IOException {
        String chosen = System.getenv(VARIABLE);
        if (chosen != null && !chosen.isEmpty()) {
            return List.of(Path.of(chosen));
        }
        Path shelf = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(shelf)) {
            return List.of();
        }
        try (Stream<Path> homes = Files.list(shelf)) {
            return homes.toList();
        }
    }

    /** The feature version in the JDK's release file, or 0 without one. */
    private static int feature(Path home) throws IOException {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release)) {
            return 0;
        }
        Matcher m = VERSION.matcher(Files.readString(release, StandardCharsets.UTF_8));
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }
}
