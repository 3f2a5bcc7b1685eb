package wsjava.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java embedding example, compiled and run as a user would paste it; and every Java
 * block of docs/topics-and-fanout.md, compiled (those of the Redis module in its own tests, with
 * its class path), the topics example also run.
 */
@Tag("serial")      // a 4 s bound on a child JVM: run alone, not beside another test JVM
@Timeout(60)
class ReadmeExampleTest {

    static final Path GUIDE = Path.of("docs/topics-and-fanout.md");

    /** Each ```java block of a Markdown text, in order. */
    static List<String> javaBlocks(String markdown) {
        List<String> blocks = new java.util.ArrayList<>();
        Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(markdown);
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    /** Compiles a block as the public class it declares; returns that class's name. */
    static String compile(String source, Path dir) throws Exception {
        Matcher name = Pattern.compile("public class (\\w+)").matcher(source);
        assertTrue(name.find(), "a guide block declares a public class:\n" + source);
        Path file = dir.resolve(name.group(1) + ".java");
        Files.writeString(file, source);
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, errors, "-cp", System.getProperty("java.class.path"),
                "-d", dir.toString(), file.toString());
        assertEquals(0, rc, name.group(1) + " does not compile:\n" + errors.toString(StandardCharsets.UTF_8));
        return name.group(1);
    }

    @Test
    void theGuidesJavaBlocksCompileAndTheTopicsExamplePrintsWhatItSays(@TempDir Path dir) throws Exception {
        List<String> blocks = javaBlocks(Files.readString(GUIDE));
        List<String> library = blocks.stream().filter(b -> !b.contains("import wsjava.redis")).toList();
        assertTrue(blocks.size() - library.size() >= 1, "the Redis module's block (compiled in redis/) is there");
        assertTrue(library.size() >= 2, "the topics and reconnecting-client blocks are there");
        for (String block : library) {
            compile(block, dir);
        }
        assertEquals(List.of("watching", "1 {0.84, 0.91, 0.14}"), runMain(dir, "LiveSeries"));
    }

    private List<String> runMain(Path dir, String className) throws Exception {
        PrintStream realOut = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = loader.loadClass(className).getMethod("main", String[].class);
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(realOut);
        }
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void theEmbeddingExampleCompilesAndPrintsItsEcho(@TempDir Path dir) throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        int section = readme.indexOf("## Embedding it in Java");
        assertTrue(section >= 0, "README has no embedding section");
        Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(readme.substring(section));
        assertTrue(block.find(), "no java block in the embedding section");
        String source = block.group(1);
        assertTrue(source.lines().count() <= 40, "the example is meant to be short");
        compile(source, dir);
        long started = System.nanoTime();
        assertEquals(List.of("echo: hello"), runMain(dir, "Embed"));
        // Its client answers the close: without request(1) the server waits out its 5 s close timeout.
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis < 4_000, "the example exits at once, not after a close timeout: " + millis + " ms");
    }
}
