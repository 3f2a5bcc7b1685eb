package wsjava.server;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * One buffer in a connection's outbound queue, with what it costs to hold: its bytes plus a fixed
 * overhead for the objects around them, so a queue of tiny frames is counted at what it really
 * takes, not at its wire length. A chunk entry collects small frames back to back, so they share
 * one overhead; a pong entry may have its bytes replaced until its first byte is written (see
 * {@link OutboundQueue#addPong}).
 */
final class OutboundEntry {

    /** The entry, its ByteBuffer and an array header, rounded up. */
    static final int OVERHEAD = 128;
    /** The size of a chunk of small frames. */
    static final int CHUNK_BYTES = 8 * 1024;
    /** The largest pong frame: a 2-byte header and 125 bytes of payload. */
    static final int PONG_BYTES = 127;

    final ByteBuffer bytes;
    /** Completed once the last byte is written; null for none. */
    final CompletableFuture<Void> done;
    final long cost;
    final boolean chunk;
    final boolean pong;
    /** The entry queued after this one; guarded by its {@link OutboundQueue}'s lock. */
    OutboundEntry next;

    private OutboundEntry(ByteBuffer bytes, CompletableFuture<Void> done, boolean chunk, boolean pong) {
        this.bytes = bytes;
        this.done = done;
        this.chunk = chunk;
        this.pong = pong;
        this.cost = OVERHEAD + (long) bytes.capacity();
    }

    static OutboundEntry of(ByteBuffer bytes, CompletableFuture<Void> done) {
        return new OutboundEntry(bytes, done, false, false);
    }

    /** An empty chunk that small frames are appended to. */
    static OutboundEntry newChunk() {
        return new OutboundEntry(ByteBuffer.allocate(CHUNK_BYTES).limit(0), null, true, false);
    }

    /** A pong entry with room for any pong frame. */
    static OutboundEntry newPong(byte[] frame) {
        OutboundEntry pong = new OutboundEntry(ByteBuffer.allocate(PONG_BYTES), null, false, true);
        pong.replacePong(frame);
        return pong;
    }

    /** Whether {@code length} more bytes fit after what this chunk holds. */
    boolean fits(long length) {
        return chunk && bytes.capacity() - bytes.limit() >= length;
    }

    /** Appends the parts' remaining bytes (they must {@link #fits fit}); positions move to their limits. */
    void append(ByteBuffer[] parts) {
        int at = bytes.limit();
        ByteBuffer target = bytes.duplicate();
        target.limit(bytes.capacity()).position(at);
        for (ByteBuffer part : parts) {
            target.put(part);
        }
        bytes.limit(target.position());
    }

    /** Whether no byte of it has been written yet (a pong is then replaced, not queued again). */
    boolean untouched() {
        return bytes.position() == 0;
    }

    /** Puts {@code frame} in place of this pong's bytes; returns the change in length. */
    int replacePong(byte[] frame) {
        int before = bytes.remaining();
        bytes.clear();
        bytes.put(frame).flip();
        return frame.length - before;
    }
}
