package wsjava.protocol;

import java.nio.ByteBuffer;
import java.util.Arrays;
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
 */
public final class MessageDeflater {

    private final int level;
    private final boolean noContextTakeover;
    private Deflater deflater;
    private long lastUsedNanos;
    /** Set by {@link #end()}: no stream is made again. */
    private boolean ended;
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
    public synchronized byte[] compress(byte[] payload, int off, int len) {
        return deflate(ByteBuffer.wrap(payload, off, len));
    }

    /**
     * The compressed form of {@code payload}'s remaining bytes (a direct buffer's too, read where it
     * is, without a copy), without the tail. Its position is not moved.
     */
    public synchronized byte[] compress(ByteBuffer payload) {
        return deflate(payload.duplicate());
    }

    /**
     * Deflates {@code input} with a sync flush at its end, a slice at a time. The output starts at an
     * eighth of the input (text compresses several times; a 16 MiB message should not cost an 8 MiB
     * array first) and doubles when it fills.
     */
    private byte[] deflate(ByteBuffer input) {
        Deflater zlib = stream();
        int len = input.remaining();
        byte[] out = new byte[Math.max(64, Math.min(len / 2 + 64, Math.max(64 * 1024, len / 8)))];
        int size = 0;
        do {
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
            release();
        }
        int trimmed = size >= 4 && out[size - 4] == 0 && out[size - 3] == 0 && out[size - 2] == (byte) 0xFF && out[size - 1] == (byte) 0xFF ? size - 4 : size;
        return Arrays.copyOf(out, trimmed);
    }

    private Deflater stream() {
        if (ended) {
            throw new IllegalStateException("the deflater was ended with its connection");
        }
        if (deflater == null) {
            deflater = new Deflater(level, true);
            if (streams != null) {
                streams.made(ZlibStreams.DEFLATE_BYTES);
            }
        }
        lastUsedNanos = System.nanoTime();
        return deflater;
    }

    /** Frees the zlib stream; the next message starts a new one. */
    public synchronized void release() {
        if (deflater != null) {
            deflater.end();
            deflater = null;
            if (streams != null) {
                streams.freed(ZlibStreams.DEFLATE_BYTES);
            }
        }
    }

    /**
     * Frees the zlib stream for good (the connection ended): a compression still waiting for this
     * lock must not make a new stream that nobody would free. See {@link #ended()}.
     */
    public synchronized void end() {
        release();
        ended = true;
    }

    /** Whether {@link #end()} was called: callers holding this lock queue nothing more. */
    public synchronized boolean ended() {
        return ended;
    }

    /** Frees the zlib stream if nothing was compressed for {@code idleNanos}; true when it did. */
    public synchronized boolean releaseIfIdle(long nowNanos, long idleNanos) {
        if (deflater == null || nowNanos - lastUsedNanos <= idleNanos) {
            return false;
        }
        release();
        return true;
    }

    /** Whether a zlib stream is held now. */
    public synchronized boolean holdsStream() {
        return deflater != null;
    }

    public boolean noContextTakeover() {
        return noContextTakeover;
    }
}
