package wsjava.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The library's layers: the CLI uses the library, never the other way round. */
class LayeringTest {

    private static List<String> importers(String fromPackageDir, String importedPackage) throws IOException {
        Path root = Path.of("src/main/java/wsjava").resolve(fromPackageDir);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> {
                        try {
                            return Files.readString(f).contains("import " + importedPackage + ".");
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .map(Path::toString)
                    .collect(Collectors.toList());
        }
    }

    @Test
    void noLibraryPackageImportsTheCli() throws IOException {
        for (String library : List.of("mask", "protocol", "server", "link", "options")) {
            assertEquals(List.of(), importers(library, "wsjava.cli"), library + " must not depend on the CLI");
        }
    }

    @Test
    void theServerKnowsNothingOfTheNamedOptionsThatConfigureIt() throws IOException {
        assertEquals(List.of(), importers("server", "wsjava.options"));
    }

    @Test
    void theProtocolCodecKnowsNothingOfTheServer() throws IOException {
        assertEquals(List.of(), importers("protocol", "wsjava.server"));
        assertEquals(List.of(), importers("protocol", "wsjava.link"));
    }
}
