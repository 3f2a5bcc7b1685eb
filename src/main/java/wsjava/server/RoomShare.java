package wsjava.server;

import wsjava.server.internal.EventRoom;

/**
 * One connection's reservation in its server's {@link EventRoom} (none when the listener has no
 * room): taken as its message grows, given back when the message was delivered or dropped.
 */
final class RoomShare {

    private final EventRoom room;
    private final Object holder;
    private long held;

    RoomShare(EventRoom room, Object holder) {
        this.room = room;
        this.holder = holder;
    }

    /** Room for an event of up to {@code dataBytes} assembled bytes more; false when the room is full. */
    boolean reserve(long dataBytes) {
        if (room == null || dataBytes <= 0) {
            return true;
        }
        long bytes = 2 * dataBytes;     // a String of n bytes of text holds up to 2n; Base64 of n bytes, 4n/3
        if (!room.tryReserve(holder, bytes)) {
            return false;
        }
        held += bytes;
        return true;
    }

    /** Room for a message's start: its event's fixed cost and the buffer it may reuse without growing. */
    boolean reserveStart(long keptBuffer) {
        if (room == null) {
            return true;
        }
        long bytes = EventRoom.EVENT_BYTES + 2 * keptBuffer;
        if (!room.tryReserve(holder, bytes)) {
            return false;
        }
        held += bytes;
        return true;
    }

    /** Gives back {@code dataBytes} just reserved (the growth was refused elsewhere). */
    void giveBack(long dataBytes) {
        if (room != null && dataBytes > 0) {
            held -= 2 * dataBytes;
            room.release(holder, 2 * dataBytes);
        }
    }

    /** The message was delivered or dropped: its event is now counted by the room itself. */
    void releaseAll() {
        if (held > 0) {
            room.release(holder, held);
            held = 0;
        }
    }

    long held() {
        return held;
    }
}
