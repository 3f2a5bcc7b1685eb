package wsjava.server;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Direct buffers kept by one I/O thread for the messages its connections assemble, in a few sizes
 * ({@link #sizeFor}). Allocating a direct buffer is slow (zeroed, and freed only by the collector),
 * so buffers are reused; at most {@link #MAX_KEPT_BYTES} wait here between messages. Only the
 * loop's own thread takes and gives: a buffer given from another thread, beyond the cap, or larger
 * than the cap is left to the collector. A connection takes at most twice what it has received
 * (see the assembler), so the pool never allocates for a length a peer only claims.
 */
final class DirectPool {

    static final int MIN_BYTES = 64 * 1024;
    /** Up to this size, buffers come in powers of two; above it, in whole multiples of it. */
    static final int STEP_BYTES = 1024 * 1024;
    static final long MAX_KEPT_BYTES = 16L * 1024 * 1024;

    /** True on the one thread that may use the pool. */
    private final BooleanSupplier onOwnerThread;
    /** Free buffers by capacity, most recently given first (likely still in cache). */
    private final Map<Integer, ArrayDeque<ByteBuffer>> free = new HashMap<>();
    private long keptBytes;

    DirectPool(BooleanSupplier onOwnerThread) {
        this.onOwnerThread = onOwnerThread;
    }

    ByteBuffer take(int capacity) {
        int size = sizeFor(capacity);
        ArrayDeque<ByteBuffer> kept = free.get(size);
        ByteBuffer buffer = kept == null ? null : kept.pollFirst();
        if (buffer == null) {
            return ByteBuffer.allocateDirect(size);
        }
        keptBytes -= size;
        return buffer.clear();
    }

    void give(ByteBuffer buffer) {
        if (!onOwnerThread.getAsBoolean() || keptBytes + buffer.capacity() > MAX_KEPT_BYTES) {
            return;
        }
        free.computeIfAbsent(buffer.capacity(), k -> new ArrayDeque<>()).addFirst(buffer);
        keptBytes += buffer.capacity();
    }

    /** Bytes waiting for reuse (for tests). */
    long keptBytes() {
        return keptBytes;
    }

    /**
     * The size of buffer that holds {@code capacity} bytes: a power of two from 64 KiB up to 1 MiB,
     * then the next whole MiB, so a large message wastes at most 1 MiB (a power of two could waste
     * nearly half of it, and the inbound budget counts what is held).
     */
    static int sizeFor(int capacity) {
        if (capacity <= STEP_BYTES) {
            int size = MIN_BYTES;
            while (size < capacity) {
                size <<= 1;
            }
            return size;
        }
        long rounded = ((long) capacity + STEP_BYTES - 1) / STEP_BYTES * STEP_BYTES;
        return rounded > Integer.MAX_VALUE - 8 ? capacity : (int) rounded;
    }
}
