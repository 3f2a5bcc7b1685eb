package wsjava.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Temporary directories a benchmark made for itself, removed when it is done with them. */
final class TempFiles {

    private TempFiles() {
    }

    /** Deletes {@code dir} and everything under it; nothing happens when it is already gone. */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(TempFiles::delete);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void delete(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
