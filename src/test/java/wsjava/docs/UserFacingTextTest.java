package wsjava.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What users read speaks their language: no tracker numbers anywhere in the README, the guides, the
 * changelog or the text the programs print, and no test class names in the guides written for
 * users. The pages for contributors (what the tests run, fuzzing, the source tree, checking the WL
 * side) may name tests: that is their subject.
 */
class UserFacingTextTest {

    static final Pattern ISSUE_NUMBER = Pattern.compile("(?i)\\b(issues?|round) #?\\d+\\b|the issue's");
    static final Pattern TEST_CLASS = Pattern.compile("\\b[A-Z][A-Za-z0-9]+Test\\b");
    static final Pattern STRING_LITERAL = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    static final Set<String> CONTRIBUTOR_PAGES = Set.of("testing.md", "fuzzing-and-soak.md", "layout.md", "checking-wl.md");

    static List<Path> markdown() throws IOException {
        List<Path> out = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CHANGELOG.md")));
        try (Stream<Path> walk = Files.walk(Path.of("docs"))) {
            out.addAll(walk.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
        }
        return out;
    }

    /** Every line of {@code text} that {@code pattern} matches, as "where: line". */
    static List<String> hits(Pattern pattern, String where, String text) {
        List<String> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher m = pattern.matcher(lines[i]);
            if (m.find()) {
                out.add(where + ":" + (i + 1) + ": " + m.group());
            }
        }
        return out;
    }

    /** The string literals of the Java sources under {@code root}: what the programs can print. */
    static List<String> literalHits(Pattern pattern, Path root) throws IOException {
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return out;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path source : walk.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList())) {
                String[] lines = Files.readString(source).split("\n", -1);
                for (int i = 0; i < lines.length; i++) {
                    Matcher literal = STRING_LITERAL.matcher(lines[i]);
                    while (literal.find()) {
                        if (pattern.matcher(literal.group()).find()) {
                            out.add(source + ":" + (i + 1) + ": " + literal.group());
                        }
                    }
                }
            }
        }
        return out;
    }

    @Test
    void noTrackerNumbersInDocsOrProgramText() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path doc : markdown()) {
            found.addAll(hits(ISSUE_NUMBER, doc.toString(), Files.readString(doc)));
        }
        found.addAll(hits(ISSUE_NUMBER, "wsjava", Files.readString(Path.of("wsjava"))));
        for (String root : List.of("src/main/java", "bench/src/main/java", "redis/src/main/java")) {
            found.addAll(literalHits(ISSUE_NUMBER, Path.of(root)));
        }
        assertTrue(found.isEmpty(), "tracker numbers where users read:\n" + String.join("\n", found));
    }

    @Test
    void noTestClassNamesInUserGuides() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path doc : markdown()) {
            if (!CONTRIBUTOR_PAGES.contains(doc.getFileName().toString())) {
                found.addAll(hits(TEST_CLASS, doc.toString(), Files.readString(doc)));
            }
        }
        assertTrue(found.isEmpty(), "test class names in guides for users:\n" + String.join("\n", found));
    }

    @Test
    void thePatternsFindWhatTheyAreFor() {
        assertEquals(1, hits(ISSUE_NUMBER, "planted", "fixed (issue 21)\nclean line").size());
        assertEquals(1, hits(ISSUE_NUMBER, "planted", "so the issue's target is met").size());
        assertEquals(1, hits(TEST_CLASS, "planted", "checked by `OverdraftTest`").size());
        assertEquals(0, hits(TEST_CLASS, "planted", "run the tests; Test it yourself").size());
        assertEquals(0, hits(ISSUE_NUMBER, "planted", "issues are welcome; 3 issues").size());
    }
}
