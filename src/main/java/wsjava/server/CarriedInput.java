package wsjava.server;

import java.nio.ByteBuffer;

/**
 * Input a connection read but could not parse yet (its pass's work was used up, the budget had no
 * room, the server's reading is suspended): kept in a heap buffer of its own, since the I/O thread's
 * read buffer serves the next connection, and parsed first when the connection goes on. While
 * there is any, the socket is not read, so it never holds more than one read.
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
