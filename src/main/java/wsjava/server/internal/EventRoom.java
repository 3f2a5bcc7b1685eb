package wsjava.server.internal;

import wsjava.server.WebSocketServer;

/**
 * A listener that keeps what it is given until another thread takes it (the Wolfram Language
 * bridge's event queue) and has a limit in bytes. A server whose listener is one:
 * <ul>
 *   <li>reserves room in it for every message as the message is assembled (twice its bytes, a Java
 *       String's worst case, plus {@link #EVENT_BYTES}), completing bytes included, and gives the
 *       room back once the message was delivered: messages in progress never take it past its limit;</li>
 *   <li>reads no request head, so upgrades no connection, while {@link #mayOpen()} says no.</li>
 * </ul>
 * A refused reservation waits for {@link WebSocketServer#resumeReading()}.
 */
public interface EventRoom {

    /** What an event costs besides its data: the room a message reserves at its start. */
    long EVENT_BYTES = 256;

    /** The server this listener serves: the one it suspends when it refuses room. */
    void serving(WebSocketServer server);

    /** Reserves {@code bytes} for {@code holder}'s message; false (nothing reserved) when that would pass the limit. */
    boolean tryReserve(Object holder, long bytes);

    /** Gives back {@code bytes} of {@code holder}'s reservation: its message was delivered, or dropped. */
    void release(Object holder, long bytes);

    /** Whether a connection may be upgraded now: there is room for its open event and its close. */
    boolean mayOpen();
}
