package wsjava.protocol;

import java.nio.ByteBuffer;

/**
 * Receives what {@link FrameParser} finds, as it finds it: a header, then the payload (already
 * unmasked) in as many pieces as the network delivered, then the end of the frame. Seeing pieces
 * lets a listener reject bad UTF-8 at the chunk that carries it.
 */
public interface FrameListener {

    void onFrameStart(FrameHeader header);

    /** {@code buf[off, off+len)} is valid only during the call. */
    void onFramePayload(byte[] buf, int off, int len);

    /**
     * A piece of payload as the bytes between {@code piece}'s position and limit: the parser's own
     * input buffer (a server's direct read buffer), so valid only during the call. The listener may
     * read it, moving its position; the parser restores position and limit afterwards (see
     * {@link #acceptsInput()} for a listener that takes only part of a piece). By default
     * the piece goes to {@link #onFramePayload(byte[], int, int)}: without a copy when the buffer
     * has an array, through one otherwise.
     */
    default void onFramePayload(ByteBuffer piece) {
        if (piece.hasArray()) {
            onFramePayload(piece.array(), piece.arrayOffset() + piece.position(), piece.remaining());
        } else {
            byte[] copy = new byte[piece.remaining()];
            piece.get(copy);
            onFramePayload(copy, 0, copy.length);
        }
    }

    void onFrameEnd();

    /**
     * Whether the listener takes more input now. The parser asks before each header and payload
     * piece and after each piece: when it turns false during {@link #onFramePayload(ByteBuffer)},
     * the listener took only the bytes before the piece's position, and the parser leaves the rest
     * (masked as it came) in its input, to be parsed again later. By default always true.
     */
    default boolean acceptsInput() {
        return true;
    }
}
