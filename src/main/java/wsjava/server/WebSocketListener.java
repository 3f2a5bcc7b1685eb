package wsjava.server;

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
