package wsjava.bench;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Starts a server on a free port, and on a fresh one when it fails: on a shared machine another
 * process can take the port between {@link EchoBench#freePort()} and the server's bind (seen on
 * 2026-12-02, with Jetty and Netty, in one echo run each).
 */
final class FreshPort {

    /** A started server and the port it listens on. */
    record Running(Process process, int port) {
    }

    private static final int ATTEMPTS = 3;

    private FreshPort() {
    }

    static Running start(EchoBench.Peer peer, boolean pin, Path out) throws IOException, InterruptedException {
        IOException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = EchoBench.freePort();
            try {
                return new Running(EchoBench.start(peer, port, pin, out), port);
            } catch (IOException e) {
                failure = e;
            }
        }
        throw failure;
    }
}
