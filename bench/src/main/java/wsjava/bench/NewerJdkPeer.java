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
    static EchoBench.Peer find(EchoBench.Peer wsjava) {
        Path best = newest();
        if (best == null) {
            String chosen = System.getenv(VARIABLE);
            System.out.println("WSJava on a newer JDK: not run (" + (chosen == null || chosen.isEmpty()
                    ? "none newer than " + Runtime.version().feature() + " under /usr/lib/jvm; " + VARIABLE + " names one"
                    : VARIABLE + "=" + chosen + " is not a JDK newer than " + Runtime.version().feature()) + ")");
            return null;
        }
        List<String> command = new ArrayList<>(List.of(best.resolve("bin/java").toString()));
        for (String flag : EchoBench.JVM_FLAGS) {
            if (flag.equals("--add-modules") || flag.equals("jdk.incubator.vector")) {
                continue;      // added below, only where the runtime has the module (a jlink image may not)
            }
            command.add(flag);
        }
        if (release(best).contains("jdk.incubator.vector")) {
            command.addAll(List.of("--add-modules", "jdk.incubator.vector"));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), wsjava.mainClass));
        command.addAll(wsjava.args);
        return EchoBench.nativePeer(wsjava.name + " (JDK " + feature(best) + ")", command);
    }

    /** The home of the newest JDK newer than the running one, or null. */
    static Path newest() {
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

    private static List<Path> candidates() {
        String chosen = System.getenv(VARIABLE);
        if (chosen != null && !chosen.isEmpty()) {
            return List.of(Path.of(chosen));
        }
        try (Stream<Path> homes = Files.list(Path.of("/usr/lib/jvm"))) {
            return homes.toList();
        } catch (IOException e) {
            return List.of();       // no such directory, or unreadable: no candidates
        }
    }

    /** The JDK's release file (JAVA_VERSION, MODULES and so on), or "" without a readable one. */
    private static String release(Path home) {
        try {
            return Files.readString(home.resolve("release"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** The feature version in the JDK's release file, or 0 without one. */
    private static int feature(Path home) {
        Matcher m = VERSION.matcher(release(home));
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }
}
