package wsjava.protocol;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Inflates compressed messages (RFC 7692 section 7.2.2) as their bytes arrive, in steps of at most
 * {@link #STEP} output bytes, each handed to a {@link Sink} that may refuse it (the message limit):
 * a bomb that would inflate to gigabytes is stopped at the limit with at most one step in memory.
 * The zlib stream is made on the first compressed message and, without context takeover, freed
 * after each message, so a connection that is not receiving one holds none.
 */
public final class MessageInflater {

    static final int STEP = 16 * 1024;
    private static final byte[] TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

    /** Where inflated bytes go; it throws (a {@link CloseException}) to stop the message. */
    public interface Sink {
        void accept(byte[] buf, int off, int len);
    }

    private final boolean noContextTakeover;
    private Inflater inflater;
    private byte[] step;

    /** @param noContextTakeover the peer compresses each message afresh (client_no_context_takeover) */
    public MessageInflater(boolean noContextTakeover) {
        this.noContextTakeover = noContextTakeover;
    }

    /** Inflates part of a compressed message's payload. */
    public void inflate(byte[] buf, int off, int len, Sink sink) {
        inflate(ByteBuffer.wrap(buf, off, len), sink);
    }

    /** Inflates the bytes between {@code input}'s position and limit (a direct buffer's too, without a copy). */
    public void inflate(ByteBuffer input, Sink sink) {
        if (inflater == null) {
            inflater = new Inflater(true);
            step = new byte[STEP];
        }
        if (inflater.finished()) {
            // The peer ended its DEFLATE stream (a block with BFINAL set); what follows starts a new one.
            inflater.reset();
        }
        inflater.setInput(input);
        try {
            while (true) {
                int n = inflater.inflate(step);
                if (n > 0) {
                    sink.accept(step, 0, n);
                } else if (inflater.needsDictionary()) {
                    throw new BadPayloadException("compressed data asks for a preset dictionary");
                } else {
                    return;     // all input used, or the stream ended
                }
            }
        } catch (DataFormatException e) {
            throw new BadPayloadException("invalid compressed data: " + e.getMessage());
        }
    }

    /** Ends a compressed message: inflates the {@code 00 00 ff ff} tail its sender removed. */
    public void finish(Sink sink) {
        if (inflater == null) {
            inflate(TAIL, 0, 0, sink);    // an empty compressed message: nothing was fed yet
        }
        if (!inflater.finished()) {
            inflate(TAIL, 0, TAIL.length, sink);
        }
        if (noContextTakeover || inflater.finished()) {
            release();
        }
    }

    /** Frees the zlib stream (at close, or between messages without context takeover). */
    public void release() {
        if (inflater != null) {
            inflater.end();
            inflater = null;
            step = null;
        }
    }

    /** Whether a zlib stream is held now (for tests and memory accounting). */
    public boolean holdsStream() {
        return inflater != null;
    }
}
