package wsjava.server;

import java.io.Closeable;
import java.io.IOException;

/** The server's listening socket on one transport: what {@link Acceptor} takes connections from. */
interface ListeningSocket extends Closeable {

    /** The port it is bound to (the one the system chose, for port 0). */
    int port();

    /**
     * The next pending connection, non-blocking, with TCP_NODELAY set; null when none waits. Throws
     * when accepting fails (descriptors ran out, say), leaving the connection in the kernel's queue.
     */
    ConnectionSocket accept() throws IOException;

    /** Whether the loop reports pending connections (off while accepting is paused after a failure). */
    void watchAccepts(boolean on);

    @Override
    void close();
}
