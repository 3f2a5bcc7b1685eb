package wsjava.protocol;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The native memory of the zlib streams a server's inflaters and deflaters hold, which no heap
 * limit sees: each stream adds its size when made and takes it away when freed. The sizes are
 * zlib's own allocations for raw DEFLATE with a 32 KiB window at java.util.zip's fixed memLevel 8
 * (deflate: window, prev and head tables, pending buffer; inflate: window and state), rounded up.
 */
public final class ZlibStreams {

    /** An inflating stream: a 32 KiB window and about 7 KiB of state. */
    public static final long INFLATE_BYTES = 44 * 1024;
    /** A deflating stream: 64 KiB window, 64 KiB prev, 64 KiB head, 64 KiB pending buffer, state. */
    public static final long DEFLATE_BYTES = 262 * 1024;

    private final AtomicLong bytes = new AtomicLong();

    void made(long size) {
        bytes.addAndGet(size);
    }

    void freed(long size) {
        bytes.addAndGet(-size);
    }

    /** Native bytes held by live streams now. */
    public long bytes() {
        return bytes.get();
    }
}
