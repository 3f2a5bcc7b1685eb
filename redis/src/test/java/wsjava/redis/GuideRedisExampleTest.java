package wsjava.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java blocks of docs/topics-and-fanout.md that use this module compile with its class path (the library's tests compile the rest). */
class GuideRedisExampleTest {

    @Test
    void theGuidesRedisBlocksCompile(@TempDir Path dir) throws Exception {
        String guide = Files.readString(Path.of("../docs/topics-and-fanout.md"));
        List<String> blocks = new ArrayList<>();
        Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(guide);
        while (m.find()) {
            if (m.group(1).contains("import wsjava.redis")) {
                blocks.add(m.group(1));
            }
        }
        assertFalse(blocks.isEmpty(), "the guide shows the Redis module");
        for (String source : blocks) {
            Matcher name = Pattern.compile("public class (\\w+)").matcher(source);
            assertTrue(name.find(), source);
            Path file = dir.resolve(name.group(1) + ".java");
            Files.writeString(file, source);
            ByteArrayOutputStream errors = new ByteArrayOutputStream();
            int rc = ToolProvider.getSystemJavaCompiler().run(null, null, errors, "-cp", System.getProperty("java.class.path"),
                    "-d", dir.toString(), file.toString());
            assertEquals(0, rc, name.group(1) + " does not compile:\n" + errors.toString(StandardCharsets.UTF_8));
        }
    }
}
