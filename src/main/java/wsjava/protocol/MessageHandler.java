package wsjava.protocol;

import java.nio.ByteBuffer;

/** Whole messages, as {@link MessageAssembler} completes them. */
public interface MessageHandler {

    void onText(String text);

    void onBinary(byte[] data);

    /**
     * A binary message that arrived whole in one read, as a read-only view of the read buffer:
     * valid only during the call. By default it is copied into an array for {@link #onBinary(byte[])}.
     */
    default void onBinary(ByteBuffer view) {
        byte[] copy = new byte[view.remaining()];
        view.get(copy);
        onBinary(copy);
    }

    /**
     * A binary message assembled in a buffer from {@link MessageBuffers}, or in a large array the
     * assembler lets go of: a read-only view that nobody else will write, valid only during the call
     * (a pooled buffer is reused afterwards), like {@link #onBinary(ByteBuffer)}, which it defaults to.
     */
    default void onAssembledBinary(ByteBuffer view) {
        onBinary(view);
    }

    void onPing(byte[] payload);

    void onPong(byte[] payload);

    /** The peer's close frame; {@code code} is {@link CloseCodes#NO_STATUS} when it carried none. */
    void onClose(int code, String reason);
}
