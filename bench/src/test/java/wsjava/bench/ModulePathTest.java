package wsjava.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The library jar as built: it has a stable module name and runs from the module path. */
@Timeout(120)
class ModulePathTest {

    private static Path libraryJar() {
        Path jar = Path.of(System.getProperty("wsjava.root", ".."), "target", "wsjava-0.1.0.jar");
        assertTrue(Files.exists(jar), "build the library first: " + jar.toAbsolutePath());
        return jar;
    }

    @Test
    void theJarNamesItsModule() throws Exception {
        try (JarFile jar = new JarFile(libraryJar().toFile())) {
            assertEquals("io.wsjava", jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name"));
        }
    }

    @Test
    void itRunsFromTheModulePath() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--module-path", libraryJar().toString(), "--module", "io.wsjava/wsjava.cli.Main", "info")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("WSJava 0.1.0"), out);
    }
}
