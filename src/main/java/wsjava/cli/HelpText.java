package wsjava.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The help texts, kept as files beside the classes (src/main/resources/wsjava/cli/*.txt) so that
 * the launcher prints the same text without building first.
 */
final class HelpText {

    private HelpText() {
    }

    /** The text of {@code name}-help.txt: main, serve or connect. */
    static String of(String name) {
        try (InputStream in = HelpText.class.getResourceAsStream(name + "-help.txt")) {
            if (in == null) {
                throw new IllegalStateException("no help text " + name + " in the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
