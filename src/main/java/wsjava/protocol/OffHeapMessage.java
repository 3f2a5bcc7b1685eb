package wsjava.protocol;

import java.nio.ByteBuffer;

/**
 * The part of a {@link MessageAssembler} that assembles large binary messages in buffers from
 * {@link MessageBuffers} (a server's pooled direct buffers): when a message moves there, growing it
 * there (every buffer taken is given back once), handing it over, and moving it back to an array
 * when no buffer can be had (direct memory short), where it then stays until it ends.
 */
final class OffHeapMessage {

    private final MessageBuffers buffers;
    private final int from;
    private ByteBuffer buffer;
    /** No buffer could be had for this message: it stays in its array (the next message gets a new part, and tries again). */
    private boolean refused;

    /** @param buffers null for arrays only; {@code from}: binary messages past this many bytes move to its buffers */
    OffHeapMessage(MessageBuffers buffers, int from) {
        this.buffers = buffers;
        this.from = from;
    }

    /** The part for a binary message of {@code size} bytes so far, when it should move off the heap; else null. */
    static OffHeapMessage startIfLarge(MessageBuffers buffers, int from, long size) {
        return buffers != null && size > from ? new OffHeapMessage(buffers, from) : null;
    }

    /** Whether a binary message of {@code size} bytes (so far) is, or should now be, assembled here. */
    boolean takes(long size) {
        return buffers != null && !refused && (buffer != null || size > from);
    }

    boolean holds() {
        return buffer != null;
    }

    int capacity() {
        return buffer == null ? 0 : buffer.capacity();
    }

    /** The capacity a buffer taken for {@code capacity} bytes will have. */
    int sizeOf(int capacity) {
        return buffers.sizeOf(capacity);
    }

    /** Whether {@code size} bytes fit in the buffer held now. */
    boolean fits(int size) {
        return buffer != null && size <= buffer.capacity();
    }

    /**
     * Moves to a buffer of {@code capacity}, carrying the message over from the buffer held or from
     * {@code array} (its first {@code size} bytes). False when none can be had: the message must go
     * on in an array, see {@link #toArray}.
     */
    boolean grow(int capacity, byte[] array, int size) {
        ByteBuffer larger = buffers.take(capacity);
        if (larger == null) {
            refused = true;
            return false;
        }
        if (buffer != null) {
            buffer.flip();
            larger.put(buffer);
            buffers.give(buffer);
        } else {
            larger.put(array, 0, size);
        }
        buffer = larger;
        return true;
    }

    /** The message so far ({@code size} bytes) in a new array of {@code capacity}; the buffer goes back. */
    byte[] toArray(int capacity, int size) {
        byte[] array = new byte[capacity];
        buffer.flip();
        buffer.get(array, 0, size);
        buffers.give(buffer);
        buffer = null;
        return array;
    }

    void put(ByteBuffer piece) {
        buffer.put(piece);
    }

    /** Hands the assembled message to {@code handler} as a read-only view, then gives its buffer back. */
    void deliver(MessageHandler handler) {
        ByteBuffer assembled = buffer;
        buffer = null;
        assembled.flip();
        try {
            handler.onAssembledBinary(assembled.asReadOnlyBuffer());
        } finally {
            buffers.give(assembled);
        }
    }

    /** The connection ended: a buffer still held goes back. */
    void release() {
        if (buffer != null) {
            ByteBuffer held = buffer;
            buffer = null;
            buffers.give(held);
        }
    }
}
