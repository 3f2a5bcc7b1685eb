package wsjava.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The task pages of docs/tasks: each has one example (a fenced block) and says what it prints in a
 * sentence after it, "It prints `a`, then `b`." ("`b` twice" counts twice). The tests that run the
 * examples read both from here, so a new task page is checked without naming it.
 */
public final class TaskPages {

    public static final Path FOLDER = Path.of("docs/tasks");

    private static final Pattern SAYS = Pattern.compile("It prints ((?:[^.`]|`[^`]*`)*)\\.");
    private static final Pattern ITEM = Pattern.compile("`([^`]*)`( twice)?");

    private TaskPages() {
    }

    /** Every task page, sorted. */
    public static List<Path> pages() throws IOException {
        try (Stream<Path> list = Files.list(FOLDER)) {
            return list.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList());
        }
    }

    /** The fenced blocks of {@code markdown} as {language, body} pairs, in order. */
    public static List<String[]> blocks(String markdown) {
        List<String[]> out = new ArrayList<>();
        Matcher m = DocsTest.BLOCK.matcher(markdown);
        while (m.find()) {
            out.add(new String[] {m.group(1), m.group(2)});
        }
        return out;
    }

    /** The page's one block in {@code language}, or null when its example is in another language. */
    public static String example(Path page, String language) throws IOException {
        for (String[] block : blocks(Files.readString(page))) {
            if (block[0].equals(language)) {
                return block[1];
            }
        }
        return null;
    }

    /** The lines the page says its example prints: the first "It prints ..." sentence after the example. */
    public static List<String> saysItPrints(String markdown) {
        Matcher example = DocsTest.BLOCK.matcher(markdown);
        int after = example.find() ? example.end() : 0;
        Matcher says = SAYS.matcher(markdown.substring(after).replace('\n', ' '));
        List<String> out = new ArrayList<>();
        if (!says.find()) {
            return out;
        }
        Matcher item = ITEM.matcher(says.group(1));
        while (item.find()) {
            out.add(item.group(1));
            if (item.group(2) != null) {
                out.add(item.group(1));
            }
        }
        return out;
    }
}
