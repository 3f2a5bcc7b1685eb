package wsjava.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The library jar as built: a named module (its module-info, not an automatic name) that runs from the module path. */
@Timeout(120)
class ModulePathTest {

    private static Path libraryJar() {
        Path jar = Path.of(System.getProperty("wsjava.root", ".."), "target", "wsjava-0.1.0.jar");
        assertTrue(Files.exists(jar), "build the library first: " + jar.toAbsolutePath());
        return jar;
    }

    @Test
    void theJarNamesItsModule() throws Exception {
        ModuleDescriptor module = ModuleFinder.of(libraryJar()).findAll().iterator().next().descriptor();
        assertEquals("io.wsjava", module.name());
        assertFalse(module.isAutomatic(), "the jar has a module-info");
        try (JarFile jar = new JarFile(libraryJar().toFile())) {
            assertNull(jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name"), "no automatic name beside the module-info");
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
