package wsjava.server;

import java.nio.ByteBuffer;

/**
 * Input a connection read but could not parse yet (its pass's work was used up, the budget had no
 * room, the server's reading is suspended): kept in a heap buffer of its own, since the I/O thread's
 * read buffer serves the next connection, and parsed first when the connection goes on. While
 * there is any, the socket is not read, so it never holds more than one read (while the server's
 * reading is suspended, a little more: see {@link ReadGate#SUSPENDED_CARRY}).
 */
final class CarriedInput {

    private ByteBuffer kept;

    /** Keeps what is left of {@code input}: as it is when it is our own earlier copy (and still mostly full), else copied. */
    void keep(ByteBuffer input) {
        if (!input.hasRemaining()) {
            kept = null;
        } else if (input == kept && input.remaining() >= input.capacity() / 2) {
            return;
        } else {
            byte[] copy = new byte[input.remaining()];
            input.get(copy);
            kept = ByteBuffer.wrap(copy);
        }
    }

    /** Adds what a read took while nothing may be parsed (the server's reading is suspended) after what is kept. */
    void append(ByteBuffer more) {
        byte[] joined = new byte[kept.remaining() + more.remaining()];
        int had = kept.remaining();
        kept.duplicate().get(joined, 0, had);
        more.get(joined, had, more.remaining());
        kept = ByteBuffer.wrap(joined);
    }

    /** The bytes kept, to parse now (they stay kept until {@link #keep} says what is left); null when none. */
    ByteBuffer bytes() {
        return kept;
    }

    boolean isEmpty() {
        return kept == null;
    }

    /** The memory held (what the inbound budget counts). */
    int capacity() {
        return kept == null ? 0 : kept.capacity();
    }

    void clear() {
        kept = null;
    }
}
