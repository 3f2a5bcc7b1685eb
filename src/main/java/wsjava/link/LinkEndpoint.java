package wsjava.link;

import java.util.Collection;
import wsjava.server.WebSocketConnection;

/**
 * What WL holds a handle to: a server ({@link LinkServer}) or a client connection ({@link LinkClient}).
 * Either way its events go through an {@link EventQueue} that WL drains, and its connections are
 * named by id, so WL's sending, closing and event handling serve both.
 */
interface LinkEndpoint {

    EventQueue events();

    /** The open connection with this id, or null. */
    WebSocketConnection connection(long id);

    Collection<WebSocketConnection> connections();

    /** Whether WL should go on draining it: serving, or a client whose events are not all taken. */
    boolean isRunning();

    /** Ends it gracefully (a server: 1001 to every client; a client: its close handshake). */
    void stop();
}
