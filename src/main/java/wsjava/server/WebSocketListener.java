package wsjava.server;

import java.nio.ByteBuffer;

/**
 * What a server tells its application. Calls come on the connection's I/O thread, one at a time
 * per connection, in arrival order; a listener must not block (hand slow work to another thread, or
 * use an event queue as the WL bridge does). A listener that throws gets its connection closed
 * with 1011; other connections are unaffected.
 */
public interface WebSocketListener {

    default void onOpen(WebSocketConnection connection) {
    }

    default void onText(WebSocketConnection connection, String text) {
    }

    default void onBinary(WebSocketConnection connection, byte[] data) {
    }

    /**
     * A binary message as a read-only buffer, valid only during the call: its bytes may sit in the
     * I/O thread's read buffer, which the next read reuses. Override this instead of
     * {@link #onBinary(WebSocketConnection, byte[])} to read a message without it being copied; to
     * send it on, use {@link WebSocketConnection#sendBinary(ByteBuffer)}, which copies only what it
     * must keep. By default the bytes are copied into an array for the {@code byte[]} variant.
     */
    default void onBinary(WebSocketConnection connection, ByteBuffer message) {
        byte[] copy = new byte[message.remaining()];
        message.get(copy);
        onBinary(connection, copy);
    }

    default void onPong(WebSocketConnection connection, byte[] payload) {
    }

    /** The connection was not writable ({@link WebSocketConnection#isWritable()}) and is again: send more. */
    default void onWritable(WebSocketConnection connection) {
    }

    /**
     * Called once when an open connection ends: with the peer's close code, or ours, or 1006
     * when TCP dropped without a close frame.
     */
    default void onClose(WebSocketConnection connection, int code, String reason) {
    }

    /** A protocol violation or I/O error; {@link #onClose} follows. */
    default void onError(WebSocketConnection connection, Throwable error) {
    }
}
