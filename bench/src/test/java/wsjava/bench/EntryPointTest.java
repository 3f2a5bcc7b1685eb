package wsjava.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * BenchMain knows every bench and no bench knows BenchMain, so the bench module has no import
 * circle through its entry point. Read from the compiled classes: a class that uses BenchMain
 * names it in its constant pool, whatever its source looks like.
 */
@Timeout(60)
class EntryPointTest {

    @Test
    void noBenchDependsOnTheEntryPoint() throws Exception {
        Path classes = Path.of(BenchMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isDirectory(classes.resolve("wsjava/bench")), "compiled classes expected in " + classes);
        String entry = BenchMain.class.getName().replace('.', '/');
        List<String> users;
        try (Stream<Path> files = Files.walk(classes)) {
            users = files.filter(f -> f.toString().endsWith(".class"))
                    .filter(f -> !f.getFileName().toString().startsWith("BenchMain"))
                    .filter(f -> mentions(f, entry))
                    .map(f -> classes.relativize(f).toString())
                    .collect(Collectors.toList());
        }
        assertEquals(List.of(), users, "classes that depend on " + entry);
    }

    private static boolean mentions(Path classFile, String name) {
        try {
            return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1).contains(name);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
