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
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The README's Java embedding example, compiled and run as a user would paste it. */
@Timeout(60)
class ReadmeExampleTest {

    @Test
    void theEmbeddingExampleCompilesAndPrintsItsEcho(@TempDir Path dir) throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        int section = readme.indexOf("## Embedding it in Java");
        assertTrue(section >= 0, "README has no embedding section");
        Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(readme.substring(section));
        assertTrue(block.find(), "no java block in the embedding section");
        String source = block.group(1);
        assertTrue(source.lines().count() <= 40, "the example is meant to be short");
        Path file = dir.resolve("Embed.java");
        Files.writeString(file, source);

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, null, errors, "-cp", System.getProperty("java.class.path"), "-d", dir.toString(), file.toString());
        assertEquals(0, rc, "the README example does not compile:\n" + errors.toString(StandardCharsets.UTF_8));

        PrintStream realOut = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = loader.loadClass("Embed").getMethod("main", String[].class);
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(realOut);
        }
        assertEquals(List.of("echo: hello"), printed.toString(StandardCharsets.UTF_8).lines().toList());
    }
}
