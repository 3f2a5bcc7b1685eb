package wsjava.server;

import java.util.concurrent.atomic.AtomicLong;
import wsjava.protocol.DeflateAgreement;
import wsjava.protocol.ZlibStreams;

/**
 * The native memory a server agrees to keep in zlib streams. A connection with context takeover
 * keeps its stream(s) for its whole life, so the agreement reserves their size up front; when the
 * reservation does not fit, the connection is offered no context takeover instead (its streams live
 * only while a message is in flight). While the streams alive exceed twice the budget, new
 * connections get no compression at all. Streams counted: {@link ZlibStreams}.
 */
final class ZlibBudget {

    private final long limit;
    private final ZlibStreams streams;
    private final AtomicLong reserved = new AtomicLong();

    ZlibBudget(long limit, ZlibStreams streams) {
        this.limit = limit;
        this.streams = streams;
    }

    /** Whether new connections may agree to compression at all now. */
    boolean allowsCompression() {
        return streams.bytes() <= 2 * limit;
    }

    /** What an agreement keeps for the connection's life: each direction with context takeover keeps its stream. */
    static long lifelongBytes(DeflateAgreement agreement) {
        return (agreement.serverNoContextTakeover() ? 0 : ZlibStreams.DEFLATE_BYTES)
                + (agreement.clientNoContextTakeover() ? 0 : ZlibStreams.INFLATE_BYTES);
    }

    /** Reserves {@code bytes} for a connection's lifelong streams; false when they do not fit. */
    boolean reserve(long bytes) {
        while (true) {
            long now = reserved.get();
            if (now + bytes > limit) {
                return false;
            }
            if (reserved.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    long reserved() {
        return reserved.get();
    }
}
