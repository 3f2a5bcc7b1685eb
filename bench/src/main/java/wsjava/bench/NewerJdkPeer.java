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
public final class NewerJdkPeer {

    static final String VARIABLE = "WSJAVA_BENCH_JDK";
    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    private NewerJdkPeer() {
    }

    /** The peer, or null (with the reason printed) when there is no newer JDK. */
    static EchoBench.Peer find(EchoBench.Peer peer) {
        return find(peer, null);
    }

    /**
     * The peer on the newest JDK, or null (with the reason printed) when there is none newer. WSJava's
     * rows name their transport ({@code transport}: "nio" or "ffm"; null for a peer without one): the
     * FFM row is granted native access and asked for FFM, the NIO row asked for NIO.
     */
    static EchoBench.Peer find(EchoBench.Peer peer, String transport) {
        Path best = newest();
        if (best == null) {
            String chosen = System.getenv(VARIABLE);
            System.out.println(peer.name + " on a newer JDK: not run (" + (chosen == null || chosen.isEmpty()
                    ? "none newer than " + Runtime.version().feature() + " under /usr/lib/jvm; " + VARIABLE + " names one"
                    : VARIABLE + "=" + chosen + " is not a JDK newer than " + Runtime.version().feature()) + ")");
            return null;
        }
        List<String> command = new ArrayList<>(List.of(best.resolve("bin/java").toString()));
        command.addAll(heapFlags());
        if (release(best).contains("jdk.incubator.vector")) {
            command.addAll(List.of("--add-modules", "jdk.incubator.vector"));
        }
        if ("ffm".equals(transport)) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), peer.mainClass));
        List<String> args = new ArrayList<>(peer.args);
        if (transport != null) {
            args.addAll(Math.min(1, args.size()), List.of("--transport", transport));      // after "serve"; the port comes last
        }
        command.addAll(args);
        String name = peer.name + ("ffm".equals(transport) ? " " + EchoPeers.FFM : "") + " (JDK " + feature(best) + ")";
        return EchoBench.nativePeer(name, command);
    }

    /** Every Java server's JVM flags but the vector module, which a runtime may lack (a jlink image) and the floors do not use. */
    static List<String> heapFlags() {
        List<String> flags = new ArrayList<>();
        for (String flag : EchoBench.JVM_FLAGS) {
            if (!flag.equals("--add-modules") && !flag.equals("jdk.incubator.vector")) {
                flags.add(flag);
            }
        }
        return flags;
    }

    /** The home of the newest JDK newer than the running one, or null. */
    static Path newest() {
        return newestFrom(Runtime.version().feature() + 1);
    }

    /** The home of the newest JDK of at least feature version {@code feature} (WSJAVA_BENCH_JDK, else under /usr/lib/jvm), or null. */
    public static Path newestFrom(int feature) {
        Path best = null;
        int bestVersion = feature - 1;
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
    static int feature(Path home) {
        Matcher m = VERSION.matcher(release(home));
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }
}
