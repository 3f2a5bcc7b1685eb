package wsjava.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The self-contained demo page served at {@code GET /}, read once from the jar. */
final class DemoPage {

    private static final byte[] HTML = load();

    private DemoPage() {
    }

    static byte[] html() {
        return HTML;
    }

    private static byte[] load() {
        try (InputStream in = DemoPage.class.getResourceAsStream("demo.html")) {
            if (in == null) {
                throw new IllegalStateException("demo.html missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
