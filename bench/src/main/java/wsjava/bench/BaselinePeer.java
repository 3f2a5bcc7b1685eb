package wsjava.bench;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * WSJava once more in the head-to-head, from another build of the library ({@code --baseline JAR},
 * say the jar of the commit before a change): its jar goes first on the class path, so the server
 * classes come from it, with the same JVM and flags. A change to the server is then measured beside
 * the build before it, round after round in one run, not in two runs a drift apart.
 */
final class BaselinePeer {

    static final String NAME = "WSJava (baseline)";

    private BaselinePeer() {
    }

    /** The row for {@code jar}; fails when there is no such file (a typo must not measure WSJava twice). */
    static EchoBench.Peer of(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("--baseline " + jar + ": no such jar");
        }
        EchoBench.Peer wsjava = EchoBench.PEERS.get(0);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(EchoBench.JVM_FLAGS);
        command.addAll(List.of("-cp", jar.toAbsolutePath() + File.pathSeparator + System.getProperty("java.class.path"), wsjava.mainClass));
        command.addAll(wsjava.args);
        return EchoBench.nativePeer(NAME, command);
    }
}
