package wsjava.protocol;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.Deflater;

/**
 * Compresses messages for permessage-deflate (RFC 7692 section 7.2.1): raw DEFLATE, each message
 * ended with a sync flush whose {@code 00 00 ff ff} tail is removed. With context takeover the
 * zlib stream lives as long as the connection and later messages refer back to earlier ones, so
 * messages must be compressed in the order they are sent: callers hold this object's lock from
 * compressing to queueing. Without it the stream is freed after every message. With it, the
 * stream may still be freed when the connection has sent nothing compressed for a while: the next
 * message then starts a new context, which any receiver can inflate (it only loses the back
 * references it could have had), so idle connections hold no compressor.
 *
 * <p>A compression holds {@link #lock} for its whole length; freeing the stream when idle or at the
 * end only tries it, so an I/O thread never waits for a compression running on a worker. A
 * compression that ends after {@link #end()} frees the stream itself.
 */
public final class MessageDeflater {

    private final int level;
    private final boolean noContextTakeover;
    private Deflater deflater;
    private long lastUsedNanos;
    private final ReentrantLock lock = new ReentrantLock();
    /** Set by {@link #end()}: the stream goes as soon as no compression holds it. */
    private volatile boolean ended;
    /** Counts the stream this deflater holds, or null. */
    private final ZlibStreams streams;

    public MessageDeflater(int level, boolean noContextTakeover) {
        this(level, noContextTakeover, null);
    }

    /** @param streams counts the zlib stream while this deflater holds one, or null */
    public MessageDeflater(int level, boolean noContextTakeover, ZlibStreams streams) {
        if (level < 0 || level > 9) {
            throw new IllegalArgumentException("compression level must be 0 to 9, was " + level);
        }
        this.level = level;
        this.noContextTakeover = noContextTakeover;
        this.streams = streams;
    }

    /** Input is fed to zlib this much at a time: zlib pins a heap array for the length of each call, and the collector waits. */
    static final int INPUT_SLICE_BYTES = 256 * 1024;

    /** The compressed form of {@code payload[off, off+len)}, without the tail. */
    public byte[] compress(byte[] payload, int off, int len) {
        return locked(ByteBuffer.wrap(payload, off, len));
    }

    /**
     * The compressed form of {@code payload}'s remaining bytes (a direct buffer's too, read where it
     * is, without a copy), without the tail. Its position is not moved.
     */
    public byte[] compress(ByteBuffer payload) {
        return locked(payload.duplicate());
    }

    private byte[] locked(ByteBuffer input) {
        lock.lock();
        try {
            return deflate(input);
        } finally {
            unlock();
        }
    }

    /**
     * Every holder of the lock leaves through here: an {@link #end()} that found the lock taken did
     * not wait, so the last holder out frees the stream.
     */
    private void unlock() {
        lock.unlock();
        if (ended) {
            tryRelease();
        }
    }

    /**
     * Deflates {@code input} with a sync flush at its end, a slice at a time. The output starts at an
     * eighth of the input (text compresses several times; a 16 MiB message should not cost an 8 MiB
     * array first) and doubles when it fills.
     */
    private byte[] deflate(ByteBuffer input) {
        if (ended) {
            return new byte[0];     // the connection ended: nobody will send this
        }
        Deflater zlib = stream();
        int len = input.remaining();
        byte[] out = new byte[Math.max(64, Math.min(len / 2 + 64, Math.max(64 * 1024, len / 8)))];
        int size = 0;
        do {
            if (ended) {
                return new byte[0];     // the connection ended: nobody will send this, so stop compressing it
            }
            ByteBuffer slice = input.slice();
            slice.limit(Math.min(slice.limit(), INPUT_SLICE_BYTES));
            input.position(input.position() + slice.remaining());
            zlib.setInput(slice);
            boolean last = !input.hasRemaining();
            while (true) {
                size += zlib.deflate(out, size, out.length - size, last ? Deflater.SYNC_FLUSH : Deflater.NO_FLUSH);
                if (size == out.length) {
                    out = Arrays.copyOf(out, out.length * 2);
                } else if (last || zlib.needsInput()) {
                    break;     // a flush is complete when the output did not fill; otherwise the slice is used up
                }
            }
        } while (input.hasRemaining());
        if (noContextTakeover) {
            releaseHeld();
        }
        int trimmed = size >= 4 && out[size - 4] == 0 && out[size - 3] == 0 && out[size - 2] == (byte) 0xFF && out[size - 1] == (byte) 0xFF ? size - 4 : size;
        return Arrays.copyOf(out, trimmed);
    }

    private Deflater stream() {
        if (deflater == null) {
            deflater = new Deflater(level, true);
            if (streams != null) {
                streams.made(ZlibStreams.DEFLATE_BYTES);
            }
        }
        lastUsedNanos = System.nanoTime();
        return deflater;
    }

    /** Frees the zlib stream (waiting for a compression in progress); the next message starts a new one. */
    public void release() {
        lock.lock();
        try {
            releaseHeld();
        } finally {
            unlock();
        }
    }

    /** Frees the stream unless a compression holds it; false when one does. */
    private boolean tryRelease() {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            releaseHeld();
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void releaseHeld() {
        if (deflater != null) {
            deflater.end();
            deflater = null;
            if (streams != null) {
                streams.freed(ZlibStreams.DEFLATE_BYTES);
            }
        }
    }

    /**
     * Frees the zlib stream for good (the connection ended), without waiting: now, or as the
     * compression in progress ends. One that starts later frees its stream as it ends; callers
     * check {@link #ended()} first and send nothing more.
     */
    public void end() {
        ended = true;
        tryRelease();
    }

    /** Whether {@link #end()} was called. */
    public boolean ended() {
        return ended;
    }

    /** Frees the zlib stream if nothing was compressed for {@code idleNanos}; true when it did. A compression in progress is not idle: no wait. */
    public boolean releaseIfIdle(long nowNanos, long idleNanos) {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            if (deflater == null || (!ended && nowNanos - lastUsedNanos <= idleNanos)) {
                return false;
            }
            releaseHeld();
            return true;
        } finally {
            unlock();
        }
    }

    /** Whether a zlib stream is held now. */
    public boolean holdsStream() {
        lock.lock();
        try {
            return deflater != null;
        } finally {
            unlock();
        }
    }

    public boolean noContextTakeover() {
        return noContextTakeover;
    }
}
