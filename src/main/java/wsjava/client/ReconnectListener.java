package wsjava.client;

import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/**
 * What a {@link ReconnectingClient} tells its application, beyond a connection's events. The
 * connection passed is always the client itself, whose id stays the same across reopens.
 * {@code onOpen} is called once, for the first connection; {@code onClose} once, when the client
 * ends for good (the application closed it, the server closed with a code that does not
 * reconnect, or it gave up).
 */
public interface ReconnectListener extends WebSocketListener {

    /** The connection dropped (or an attempt failed): attempt number {@code attempt} follows in {@code delayMillis}. */
    default void onReconnecting(WebSocketConnection client, int attempt, long delayMillis) {
    }

    /** A new connection is open (after the policy's open hook ran); sends go out on it from now on. */
    default void onReopened(WebSocketConnection client) {
    }

    /** The attempt limit was reached; {@code onClose} follows. */
    default void onGaveUp(WebSocketConnection client, String reason) {
    }
}
