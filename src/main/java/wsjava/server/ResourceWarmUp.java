package wsjava.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.time.ZonedDateTime;

/**
 * Makes the JDK load, while descriptors are plentiful, what it would otherwise load lazily from a
 * file at the worst moment: the NIO file dispatcher (whose initializer opens a descriptor; if the
 * first socket close came when none was left, every later close would fail too, so the sockets that
 * would free descriptors could never be closed), the server's logger (found through service files) and
 * the time-zone data a log line's timestamp needs.
 */
final class ResourceWarmUp {

    private static boolean done;

    private ResourceWarmUp() {
    }

    static synchronized void run() throws IOException {
        if (done) {
            return;
        }
        Pipe pipe = Pipe.open();
        try {
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
            pipe.source().read(ByteBuffer.allocate(1));
        } finally {
            pipe.sink().close();
            pipe.source().close();
        }
        ServerLog.ready();
        ZonedDateTime.now().toString();
        done = true;
    }
}
