package wsjava.protocol;

/**
 * Receives what {@link FrameParser} finds, as it finds it: a header, then the payload (already
 * unmasked) in as many pieces as the network delivered, then the end of the frame. Seeing pieces
 * lets a listener reject bad UTF-8 at the chunk that carries it.
 */
public interface FrameListener {

    void onFrameStart(FrameHeader header);

    /** {@code buf[off, off+len)} is valid only during the call. */
    void onFramePayload(byte[] buf, int off, int len);

    void onFrameEnd();
}
