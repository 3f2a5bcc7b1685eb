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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import wsjava.cli.EchoListener;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;

/**
 * The runnable programs of the Java guides, compiled as a user would paste them and run: the
 * client's (against the echo that ./wsjava serve runs), the embedding guide's TLS echo, and the
 * Java example of every task page in docs/tasks. Each prints what its guide says it prints.
 */
@Timeout(60)
class GuideExamplesTest {

    /** The ```java block of {@code guide} that declares {@code public class name}. */
    static String block(Path guide, String name) throws Exception {
        for (String block : ReadmeExampleTest.javaBlocks(Files.readString(guide))) {
            if (block.contains("public class " + name + " ")) {
                return block;
            }
        }
        throw new AssertionError(guide + " has no example " + name);
    }

    /** Runs {@code className}'s main from {@code dir}; what it printed, by line. */
    static List<String> run(Path dir, String className, String... args) throws Exception {
        PrintStream realOut = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, GuideExamplesTest.class.getClassLoader())) {
            Method main = loader.loadClass(className).getMethod("main", String[].class);
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) args);
        } finally {
            System.setOut(realOut);
        }
        return printed.toString(StandardCharsets.UTF_8).lines().collect(Collectors.toList());
    }

    @Test
    void theClientGuidesProgramTalksToTheServeEcho(@TempDir Path dir) throws Exception {
        ReadmeExampleTest.compile(block(Path.of("docs/client.md"), "Hello"), dir);
        // ./wsjava serve's listener on a path that is not a topic is this echo.
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start()) {
            assertEquals(List.of("hello", "closed 1000"), run(dir, "Hello", server.url()));
        }
        assertTrue(Files.readString(Path.of("docs/client.md")).contains("It prints `hello`, then `closed 1000`."),
                "the guide says what the program prints");
    }

    @Test
    void theEmbeddingGuidesTlsProgramPrintsItsEcho(@TempDir Path dir) throws Exception {
        ReadmeExampleTest.compile(block(Path.of("docs/java.md"), "SecureEcho"), dir);
        assertEquals(List.of("echo: hello over TLS"), run(dir, "SecureEcho"));
        assertTrue(Files.readString(Path.of("docs/java.md")).contains("It prints `echo: hello over TLS`"),
                "the guide says what the program prints");
    }

    @Test
    void everyTaskPagesJavaProgramPrintsWhatThePageSays(@TempDir Path dir) throws Exception {
        int ran = 0;
        for (Path page : TaskPages.pages()) {
            String program = TaskPages.example(page, "java");
            if (program == null) {
                continue;
            }
            Path classes = Files.createDirectories(dir.resolve(page.getFileName().toString()));
            String className = ReadmeExampleTest.compile(program, classes);
            List<String> says = TaskPages.saysItPrints(Files.readString(page));
            assertTrue(!says.isEmpty(), page + " says what its program prints");
            assertEquals(says, run(classes, className), page + ": what " + className + " prints");
            ran++;
        }
        assertTrue(ran >= 2, "the task pages' Java programs were found: " + ran);
    }

    @Test
    void whatAPageSaysItPrintsIsReadInOrder() {
        String page = "```java\nclass A {}\n```\n\nIt prints `2 took it`, then `hi, all` twice. It prints `no`.";
        assertEquals(List.of("2 took it", "hi, all", "hi, all"), TaskPages.saysItPrints(page));
    }
}
