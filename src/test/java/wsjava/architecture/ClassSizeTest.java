package wsjava.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every source file of the library fits on a screen or two: at most {@link #LIMIT} lines. The
 * style rule is "classes under about 300 lines"; 300 is that rule as a number, so a class that
 * grows past it is split by concept before it is merged, not after it has drifted further.
 *
 * <p>The files already over it are listed in {@link #OVER_LIMIT} with their size when the limit
 * came in. They may shrink, not grow, and an entry that is back under the limit must go, so the
 * list only gets shorter.
 */
@Timeout(30)
class ClassSizeTest {

    static final int LIMIT = 300;
    static final Path SOURCES = Path.of("src/main/java");

    /** Over the limit when it came in: path under src/main/java, and its lines then (a ceiling). */
    static final Map<String, Integer> OVER_LIMIT = Map.of(
            "wsjava/link/WSJavaLink.java", 382,            // the J/Link facade: one static method per WL call
            "wsjava/protocol/MessageAssembler.java", 377,
            "wsjava/client/ClientConnection.java", 369,
            "wsjava/server/ServerConfig.java", 340,        // a public option per setter, each with its javadoc
            "wsjava/link/EventQueue.java", 309);

    @Test
    void everySourceFileIsWithinTheLimitOrNoLargerThanItsListedSize() throws IOException {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> sizes = sizes(SOURCES);
        sizes.forEach((file, lines) -> {
            Integer ceiling = OVER_LIMIT.get(file);
            if (ceiling == null && lines > LIMIT) {
                problems.add(file + " has " + lines + " lines, over " + LIMIT + ": split it by concept");
            } else if (ceiling != null && lines > ceiling) {
                problems.add(file + " grew to " + lines + " lines, over its listed " + ceiling);
            } else if (ceiling != null && lines <= LIMIT) {
                problems.add(file + " is down to " + lines + " lines: remove it from OVER_LIMIT");
            }
        });
        for (String listed : OVER_LIMIT.keySet()) {
            if (!sizes.containsKey(listed)) {
                problems.add(listed + " is listed but gone: remove it from OVER_LIMIT");
            }
        }
        assertEquals(List.of(), problems);
    }

    /** Lines per .java file under {@code root}, keyed by the path relative to it with '/' separators. */
    static Map<String, Integer> sizes(Path root) throws IOException {
        Map<String, Integer> sizes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                sizes.put(root.relativize(file).toString().replace('\\', '/'), Files.readAllLines(file).size());
            }
        }
        return sizes;
    }
}
