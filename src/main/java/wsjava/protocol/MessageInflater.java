package wsjava.protocol;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Inflates compressed messages (RFC 7692 section 7.2.2) as their bytes arrive, in steps of at most
 * {@link #STEP} output bytes. Before each step the {@link Sink} is asked whether it may take one
 * (its memory and work budgets); when it may not, inflating stops and the input it did not use stays
 * in the caller's buffer (an {@link Inflater} keeps its own state), to be fed again later. A bomb is
 * stopped at the message limit with at most one step in memory, and past the first MiB a message
 * may not inflate more than {@code maxRatio} times its compressed size unless an
 * {@link InflationAllowance} grants the bytes past that: a message the allowance cannot cover gets 1009.
 *
 * <p>The zlib stream is made on the first compressed message and, without context takeover, freed
 * after each message, so a connection that is not receiving one holds none. The step array may be
 * shared by every inflater on one thread (a server's I/O thread), since a step is handed on at once.
 */
public final class MessageInflater {

    static final int STEP = 16 * 1024;
    /** Up to this many inflated bytes a message may have any ratio: short messages compress wildly. */
    public static final long RATIO_FREE_BYTES = 1024 * 1024;
    private static final byte[] TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

    /** Where inflated bytes go; it throws (a {@link CloseException}) to stop the message. */
    public interface Sink {
        /** Whether up to {@code bytes} more may be produced now; false stops inflating for the time being. */
        default boolean prepare(int bytes) {
            return true;
        }

        /** How many more bytes the message may take before it is too big. */
        default int room() {
            return Integer.MAX_VALUE;
        }

        void accept(byte[] buf, int off, int len);
    }

    private final boolean noContextTakeover;
    /** 0: no cap. */
    private final int maxRatio;
    private final byte[] sharedStep;
    private Inflater inflater;
    private byte[] step;
    private long messageIn;
    private long messageOut;
    /** Bytes of this message the allowance granted past the ratio cap. */
    private long messageGranted;
    /** Grants bytes past the ratio cap; null: none are granted. */
    private final InflationAllowance allowance;
    /** The allowance {@code allowance} is part of (the server's, when that is a client address's), or null. */
    private final InflationAllowance whole;
    /** Streams made and not yet freed, for a budget of native memory; may be null. */
    private final ZlibStreams streams;

    /** @param noContextTakeover the peer compresses each message afresh (client_no_context_takeover) */
    public MessageInflater(boolean noContextTakeover) {
        this(noContextTakeover, 0, null, null);
    }

    /**
     * @param maxRatio   past {@link #RATIO_FREE_BYTES}, the most a message may inflate per compressed byte (0: no cap)
     * @param sharedStep a {@link #stepBuffer()} this inflater's thread shares with others, or null for its own
     * @param streams    counts the zlib streams this inflater holds, or null
     */
    public MessageInflater(boolean noContextTakeover, int maxRatio, byte[] sharedStep, ZlibStreams streams) {
        this(noContextTakeover, maxRatio, sharedStep, streams, null);
    }

    /** @param allowance grants bytes past the ratio cap (shared by a server's connections), or null for none */
    public MessageInflater(boolean noContextTakeover, int maxRatio, byte[] sharedStep, ZlibStreams streams, InflationAllowance allowance) {
        this(noContextTakeover, maxRatio, sharedStep, streams, allowance, null);
    }

    /**
     * @param allowance this sender's allowance (a server's client address's)
     * @param whole     an allowance every draw also takes from (the server's), or null
     */
    public MessageInflater(boolean noContextTakeover, int maxRatio, byte[] sharedStep, ZlibStreams streams, InflationAllowance allowance,
                           InflationAllowance whole) {
        this.allowance = allowance;
        this.whole = whole;
        this.noContextTakeover = noContextTakeover;
        this.maxRatio = maxRatio;
        this.sharedStep = sharedStep;
        this.streams = streams;
    }

    /** A step buffer for {@link #MessageInflater(boolean, int, byte[], ZlibStreams)}, one per thread. */
    public static byte[] stepBuffer() {
        return new byte[STEP];
    }

    /** Inflates part of a compressed message's payload. */
    public void inflate(byte[] buf, int off, int len, Sink sink) {
        inflate(ByteBuffer.wrap(buf, off, len), sink);
    }

    /**
     * Inflates the bytes between {@code input}'s position and limit (a direct buffer's too, without a
     * copy), moving its position past what was used; it stops early, with input left, when the sink
     * declines a step.
     */
    public void inflate(ByteBuffer input, Sink sink) {
        if (inflater == null) {
            inflater = new Inflater(true);
            step = sharedStep != null ? sharedStep : new byte[STEP];
            if (streams != null) {
                streams.made(ZlibStreams.INFLATE_BYTES);
            }
        }
        if (inflater.finished()) {
            // The peer ended its DEFLATE stream (a block with BFINAL set); what follows starts a new one.
            inflater.reset();
        }
        int start = input.position();
        inflater.setInput(input);
        try {
            while (sink.prepare(STEP)) {
                int n = inflate(sink);
                if (n > 0) {
                    messageOut += n;
                    checkRatio(input.position() - start);
                    sink.accept(step, 0, n);
                } else if (inflater.needsDictionary()) {
                    throw new BadPayloadException("compressed data asks for a preset dictionary");
                } else if (inflater.finished() && input.hasRemaining()) {
                    // The peer ended a DEFLATE stream mid-message: the rest starts a new one (invalid
                    // bytes then fail as invalid data). Leaving them would read as a declined step,
                    // and the connection would wait for room it never needed.
                    inflater.reset();
                    inflater.setInput(input);
                } else {
                    break;     // all input used, or the stream ended with it
                }
            }
        } catch (DataFormatException e) {
            throw new BadPayloadException("invalid compressed data: " + e.getMessage());
        } finally {
            messageIn += input.position() - start;
        }
    }

    /**
     * One call to zlib, for at most one byte past the message's room: the too-big error then comes
     * before zlib reads on into data it may reject. Output written before invalid data is handed to
     * the sink before the error (it may be too big, or bad text, first): which error came first
     * must not depend on how the input was cut (the compressed-stream fuzzer found both).
     */
    private int inflate(Sink sink) throws DataFormatException {
        long before = inflater.getBytesWritten();
        try {
            return inflater.inflate(step, 0, (int) Math.min(STEP, (long) sink.room() + 1));
        } catch (DataFormatException e) {
            int written = (int) (inflater.getBytesWritten() - before);    // counted by the JDK even when it throws
            if (written > 0) {
                messageOut += written;
                sink.accept(step, 0, written);
            }
            throw e;
        }
    }

    private void checkRatio(long usedNow) {
        if (maxRatio <= 0 || messageOut <= RATIO_FREE_BYTES) {
            return;
        }
        long past = messageOut - Math.max(RATIO_FREE_BYTES, (messageIn + usedNow) * maxRatio) - messageGranted;
        if (past <= 0) {
            return;
        }
        if (allowance != null && InflationAllowance.takeFromBoth(allowance, whole, past)) {
            messageGranted += past;
            return;
        }
        throw new MessageTooLargeException("compressed message inflates more than " + maxRatio
                + " times its size past the first MiB, and the allowance for such messages is spent");
    }

    /** Ends a compressed message: inflates the {@code 00 00 ff ff} tail its sender removed (a few bytes at most: never declined). */
    public void finish(Sink sink) {
        Sink always = new Sink() {
            @Override public int room() { return sink.room(); }
            @Override public void accept(byte[] buf, int off, int len) { sink.accept(buf, off, len); }
        };
        if (inflater == null) {
            inflate(TAIL, 0, 0, always);    // an empty compressed message: nothing was fed yet
        }
        if (!inflater.finished()) {
            inflate(TAIL, 0, TAIL.length, always);
        }
        messageIn = 0;
        messageOut = 0;
        messageGranted = 0;
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
            if (streams != null) {
                streams.freed(ZlibStreams.INFLATE_BYTES);
            }
        }
    }

    /** Whether a zlib stream is held now (for tests and memory accounting). */
    public boolean holdsStream() {
        return inflater != null;
    }
}
