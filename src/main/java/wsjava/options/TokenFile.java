package wsjava.options;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A token kept in a file (its first line), so that it never shows in the process list as {@code --token} would. */
final class TokenFile {

    private TokenFile() {
    }

    static String read(String file) {
        try {
            String text = new String(Files.readAllBytes(Path.of(file)), StandardCharsets.UTF_8);
            String first = text.lines().findFirst().orElse("").trim();
            if (first.isEmpty()) {
                throw new IllegalArgumentException("the token file " + file + " is empty");
            }
            return first;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the token file " + file + ": " + e.getMessage(), e);
        }
    }
}
