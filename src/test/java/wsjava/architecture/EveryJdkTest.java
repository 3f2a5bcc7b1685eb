package wsjava.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The jar on every JDK from 17 up that this machine has (the one running the tests and those under
 * /usr/lib/jvm), with and without the Vector API module: {@link JdkSelfCheck} masks and echoes in
 * a child JVM on each, and checks that it picked the kernel it should. A JDK-specific failure (JDK
 * 19 removed the buffer methods the SIMD kernel was compiled against, and every message of 256
 * bytes or more failed there) shows up here, not on a user's machine.
 */
class EveryJdkTest {

    private static final Path JAR = Path.of("target", "wsjava-0.1.0.jar");

    /** JDK home to its feature version, one entry per real directory. */
    static TreeMap<Path, Integer> jdks() throws IOException {
        List<Path> homes = new ArrayList<>();
        homes.add(Path.of(System.getProperty("java.home")));
        Path shelf = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(shelf)) {
            try (Stream<Path> entries = Files.list(shelf)) {
                entries.forEach(homes::add);
            }
        }
        TreeMap<Path, Integer> found = new TreeMap<>();
        for (Path home : homes) {
            if (Files.isExecutable(home.resolve("bin/java"))) {
                featureVersion(home).filter(v -> v >= 17).ifPresent(v -> {
                    try {
                        found.put(home.toRealPath(), v);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
        }
        return found;
    }

    /** JAVA_VERSION="25.0.1" in the JDK's release file gives 25 (and "1.8.0" gives 8). */
    private static Optional<Integer> featureVersion(Path home) throws IOException {
        Path release = home.resolve("release");
        if (!Files.exists(release)) {
            return Optional.empty();
        }
        for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
            if (line.startsWith("JAVA_VERSION=")) {
                String[] parts = line.substring(13).replace("\"", "").split("[.\\-+]");
                int first = Integer.parseInt(parts[0]);
                return Optional.of(first == 1 ? Integer.parseInt(parts[1]) : first);
            }
        }
        return Optional.empty();
    }

    @Test
    @Timeout(300)
    void theJarMasksAndEchoesOnEveryJdkHere() throws Exception {
        TreeMap<Path, Integer> jdks = jdks();
        assertFalse(jdks.isEmpty(), "not even the running JDK was found");
        String classPath = JAR.toAbsolutePath() + File.pathSeparator + Path.of("target", "test-classes").toAbsolutePath();
        List<String> failures = new ArrayList<>();
        for (var jdk : jdks.entrySet()) {
            for (boolean vectorModule : new boolean[] {true, false}) {
                List<String> command = new ArrayList<>(List.of(jdk.getKey().resolve("bin/java").toString()));
                if (vectorModule) {
                    command.addAll(List.of("--add-modules", "jdk.incubator.vector"));
                }
                command.addAll(List.of("-cp", classPath, JdkSelfCheck.class.getName(), vectorModule ? "simd" : "scalar"));
                Path log = Files.createTempFile("wsjava-jdk", ".log");
                Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
                boolean ended = child.waitFor(60, TimeUnit.SECONDS);
                if (!ended) {
                    child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
                String out = Files.readString(log) + (ended ? "" : "\n(killed after 60 s)");
                Files.delete(log);
                String label = "JDK " + jdk.getValue() + " (" + jdk.getKey() + ")" + (vectorModule ? " with" : " without")
                        + " jdk.incubator.vector";
                System.out.println("EveryJdkTest: " + label + ": " + out.lines().filter(l -> l.startsWith("ok") || l.startsWith("FAILED"))
                        .findFirst().orElse("no result line"));
                if (!ended || child.exitValue() != 0) {
                    failures.add(label + ":\n" + out);
                }
            }
        }
        assertEquals(List.of(), failures);
    }
}
