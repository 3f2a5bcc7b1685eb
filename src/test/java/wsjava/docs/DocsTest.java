package wsjava.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.matheclipse.parser.client.Parser;
import org.matheclipse.parser.client.ParserConfig;

/**
 * The README and every guide in docs/: each Java block compiles against the library (a block
 * without a class is compiled as the body of a method, with the library's packages imported),
 * each WL block parses as Mathematica syntax, and each relative link reaches a file, and a
 * heading in it when it names one.
 */
class DocsTest {

    static final Pattern BLOCK = Pattern.compile("(?ms)^```(\\w*)[^\\n]*\\n(.*?)^```");
    static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    static final String IMPORTS = "import java.io.*; import java.net.*; import java.net.http.*; import java.nio.*; "
            + "import java.nio.file.*; import java.time.*; import java.util.*; import java.util.concurrent.*; "
            + "import wsjava.server.*; import wsjava.client.*; import wsjava.tls.*; import wsjava.mask.*;\n";

    static List<Path> documents() throws IOException {
        List<Path> out = new ArrayList<>(List.of(Path.of("README.md")));
        if (Files.isDirectory(Path.of("docs"))) {
            try (Stream<Path> walk = Files.walk(Path.of("docs"))) {
                out.addAll(walk.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
            }
        }
        for (String extra : List.of("CHANGELOG.md", "bench/README.md")) {
            if (Files.exists(Path.of(extra))) {
                out.add(Path.of(extra));
            }
        }
        return out;
    }

    /** A block as a compilable file: whole when it declares a type, else the body of a method. */
    static String javaUnit(String block, int n) {
        if (Pattern.compile("(?m)^(public\\s+)?(final\\s+)?(class|interface|record|enum)\\s+\\w+").matcher(block).find()) {
            return block.contains("import ") ? block : IMPORTS + block;
        }
        return IMPORTS + "class Snippet" + n + " {\n  @SuppressWarnings(\"unused\")\n  static void snippet() throws Exception {\n"
                + block + "\n  }\n}\n";
    }

    static String className(String unit, int n) {
        Matcher m = Pattern.compile("(?m)^(?:public\\s+)?(?:final\\s+)?(?:class|interface|record|enum)\\s+(\\w+)").matcher(unit);
        return m.find() ? m.group(1) : "Snippet" + n;
    }

    @Test
    void everyJavaBlockCompiles(@TempDir Path dir) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> problems = new ArrayList<>();
        int n = 0;
        for (Path doc : documents()) {
            Matcher block = BLOCK.matcher(Files.readString(doc));
            while (block.find()) {
                // The Redis module's blocks need its jar and Jedis: redis/'s GuideRedisExampleTest compiles them.
                if (!block.group(1).equals("java") || block.group(2).contains("wsjava.redis")) {
                    continue;
                }
                n++;
                String unit = javaUnit(block.group(2), n);
                Path source = dir.resolve("b" + n).resolve(className(unit, n) + ".java");
                Files.createDirectories(source.getParent());
                Files.writeString(source, unit);
                ByteArrayOutputStream errors = new ByteArrayOutputStream();
                int rc = javac.run(null, null, errors, "-proc:none", "-cp", System.getProperty("java.class.path"),
                        "-d", source.getParent().toString(), source.toString());
                if (rc != 0) {
                    problems.add(doc + ", Java block " + n + ":\n" + errors.toString(StandardCharsets.UTF_8));
                }
            }
        }
        assertTrue(n >= 2, "the Java blocks were found");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void aJavaBlockThatDoesNotCompileIsFound(@TempDir Path dir) throws IOException {
        String unit = javaUnit("WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), null).start();\nserver.stopp();", 1);
        Path source = dir.resolve("Snippet1.java");
        Files.writeString(source, unit);
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, new ByteArrayOutputStream(), "-proc:none",
                "-cp", System.getProperty("java.class.path"), "-d", dir.toString(), source.toString());
        assertTrue(rc != 0, "a misspelled method is refused");
    }

    @Test
    void everyWlBlockParses() throws IOException {
        ParserConfig.PARSER_USE_LOWERCASE_SYMBOLS = false;
        List<String> problems = new ArrayList<>();
        int n = 0;
        for (Path doc : documents()) {
            Matcher block = BLOCK.matcher(Files.readString(doc));
            while (block.find()) {
                if (!Set.of("wl", "wolfram", "mathematica").contains(block.group(1))) {
                    continue;
                }
                n++;
                try {
                    new Parser(false, true).parsePackage(block.group(2));
                } catch (RuntimeException e) {
                    problems.add(doc + ", WL block " + n + ": " + e.getMessage());
                }
            }
        }
        assertTrue(n >= 3, "the WL blocks were found");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void aWlBlockThatDoesNotParseIsFound() {
        ParserConfig.PARSER_USE_LOWERCASE_SYMBOLS = false;
        boolean refused;
        try {
            new Parser(false, true).parsePackage("WSJavaListen[20580, HandlerFunctions -> <|\"MessageReceived\" -> f|>");
            refused = false;
        } catch (RuntimeException e) {
            refused = true;
        }
        assertTrue(refused, "an unclosed bracket is refused");
    }

    /** The WSJava symbols a WL text calls (strings and comments left out). */
    static Set<String> wsjavaSymbols(String wl) {
        String code = wl.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"").replaceAll("(?s)\\(\\*.*?\\*\\)", " ");
        Set<String> out = new LinkedHashSet<>();
        Matcher m = Pattern.compile("\\bWSJava[A-Z]\\w*").matcher(code);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** The public symbols of the paclet: the entries of the generated reference. */
    static Set<String> referenceSymbols() throws IOException {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = Pattern.compile("(?m)^### (\\w+)$").matcher(Files.readString(Path.of("docs/wl-reference.md")));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void everyWlBlockCallsOnlyDocumentedSymbols() throws IOException {
        Set<String> documented = referenceSymbols();
        assertTrue(documented.contains("WSJavaListen"), "the reference lists the symbols");
        List<String> problems = new ArrayList<>();
        for (Path doc : documents()) {
            Matcher block = BLOCK.matcher(Files.readString(doc));
            while (block.find()) {
                if (Set.of("wl", "wolfram", "mathematica").contains(block.group(1))) {
                    for (String symbol : wsjavaSymbols(block.group(2))) {
                        if (!documented.contains(symbol)) {
                            problems.add(doc + ": " + symbol + " is not in the reference");
                        }
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void anUndocumentedSymbolIsFound() {
        assertEquals(Set.of("WSJavaListen", "WSJavaServe"),
                wsjavaSymbols("s = WSJavaListen[20580]; WSJavaServe[s] (* WSJavaWait *); Success[\"WSJavaSent\", <||>]"));
    }

    /** Words of prose: the page without its code blocks. */
    static int proseWords(String markdown) {
        String prose = withoutCode(markdown).trim();
        return prose.isEmpty() ? 0 : prose.split("\\s+").length;
    }

    @Test
    void everyTaskPageIsShortAndHasOneExample() throws IOException {
        List<Path> pages = TaskPages.pages();
        assertTrue(pages.size() >= 5, "the task pages are there: " + pages);
        List<String> problems = new ArrayList<>();
        for (Path page : pages) {
            String text = Files.readString(page);
            List<String[]> blocks = TaskPages.blocks(text);
            if (blocks.size() != 1 || !Set.of("wl", "java", "sh").contains(blocks.get(0)[0])) {
                problems.add(page + ": " + blocks.size() + " blocks; a task page has one example, in wl, java or sh");
            } else if (!blocks.get(0)[0].equals("wl") && TaskPages.saysItPrints(text).isEmpty()) {
                problems.add(page + ": no \"It prints `...`.\" after its example");
            }
            int words = proseWords(text);
            if (words > 350) {
                problems.add(page + ": " + words + " words of prose; a task page stays under 350");
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void everyLinkBetweenTheDocumentsWorks() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path doc : documents()) {
            problems.addAll(brokenLinks(doc, Files.readString(doc)));
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void aBrokenLinkIsFound() {
        List<String> found = brokenLinks(Path.of("README.md"), "See [the guide](docs/no-such-guide.md) and [a heading](#no-such-heading).");
        assertEquals(2, found.size(), found.toString());
    }

    /** Relative links (not http:, not mailto:) whose file or heading is missing. */
    static List<String> brokenLinks(Path doc, String text) {
        List<String> out = new ArrayList<>();
        Matcher m = LINK.matcher(withoutCode(text));
        while (m.find()) {
            String target = m.group(1);
            if (target.matches("^[a-z]+:.*")) {
                continue;
            }
            String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
            String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
            Path resolved = file.isEmpty() ? doc : doc.toAbsolutePath().getParent().resolve(file).normalize();
            if (!Files.exists(resolved)) {
                out.add(doc + ": link to " + target + ": no such file");
                continue;
            }
            if (anchor != null && !Files.isDirectory(resolved)) {
                try {
                    String targetText = resolved.equals(doc.toAbsolutePath().normalize()) || file.isEmpty() ? text : Files.readString(resolved);
                    if (!anchors(targetText).contains(anchor)) {
                        out.add(doc + ": link to " + target + ": no such heading");
                    }
                } catch (IOException e) {
                    out.add(doc + ": link to " + target + ": " + e);
                }
            }
        }
        return out;
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
    static Set<String> anchors(String markdown) {
        Set<String> out = new LinkedHashSet<>();
        Matcher h = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*$").matcher(withoutCode(markdown));
        while (h.find()) {
            String slug = h.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            String unique = slug;
            for (int i = 1; out.contains(unique); i++) {
                unique = slug + "-" + i;
            }
            out.add(unique);
        }
        return out;
    }

    private static String withoutCode(String markdown) {
        return BLOCK.matcher(markdown).replaceAll("");
    }
}
