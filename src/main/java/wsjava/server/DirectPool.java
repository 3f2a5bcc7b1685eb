package wsjava.server;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * Direct buffers kept by one I/O thread for the large messages its connections assemble, in a
 * few sizes ({@link #sizeFor}). Allocating a direct buffer is slow (zeroed, and freed only by the collector),
 * so buffers are reused; at most {@link #MAX_KEPT_BYTES} wait here between messages. Only the
 * loop's own thread takes and gives: a buffer given from another thread, beyond the cap, or larger
 * than the cap is left to the collector. When direct memory is short, {@link #take} says so (null)
 * instead of failing, and the connection waits. A connection takes at most twice what it has received
 * (see the assembler), so the pool never allocates for a length a peer only claims.
 */
final class DirectPool {

    /** The smallest buffer; messages up to this size are assembled in arrays. */
    static final int MIN_BYTES = 64 * 1024;
    /** Up to 1 MiB, buffers come in multiples of 64 KiB; above it, in whole MiB. */
    static final int STEP_BYTES = 1024 * 1024;
    /** What a pool keeps between messages: 16 MiB, or a sixteenth of direct memory when that is less. */
    static final long MAX_KEPT_BYTES = Math.min(16L * 1024 * 1024, DirectMemory.max() / 16);

    /** True on the one thread that may use the pool. */
    private final BooleanSupplier onOwnerThread;
    /** Runs a task on that thread. */
    private final Executor ownerThread;
    /** Free buffers by capacity, most recently given first (likely still in cache). */
    private final Map<Integer, ArrayDeque<ByteBuffer>> free = new HashMap<>();
    private long keptBytes;
    /** The direct-memory shortage this pool last gave its free buffers back for. */
    private long trimmedFor = DirectMemory.shortages();

    DirectPool(BooleanSupplier onOwnerThread, Executor ownerThread) {
        this.onOwnerThread = onOwnerThread;
        this.ownerThread = ownerThread;
    }

    /**
     * A buffer of at least {@code capacity}, or null when direct memory is short: the JVM's limit
     * would be passed (asking anyway would make the JDK collect and sleep on the I/O thread, then
     * fail), or allocating failed. Free buffers of other sizes are let go first.
     */
    ByteBuffer take(int capacity) {
        int size = sizeFor(capacity);
        ArrayDeque<ByteBuffer> kept = free.get(size);
        ByteBuffer buffer = kept == null ? null : kept.pollFirst();
        if (buffer != null) {
            keptBytes -= size;
            return buffer.clear();
        }
        if (!DirectMemory.hasRoomFor(size)) {
            DirectMemory.requestCollection();      // every pool gives back what it keeps, then the collector frees it
            trimIfShort();
            return null;
        }
        try {
            return ByteBuffer.allocateDirect(size);
        } catch (OutOfMemoryError e) {     // direct memory only: the heap is fine, and the caller waits
            DirectMemory.requestCollection();
            return null;
        }
    }

    void give(ByteBuffer buffer) {
        if (!onOwnerThread.getAsBoolean() || keptBytes + buffer.capacity() > MAX_KEPT_BYTES) {
            return;
        }
        free.computeIfAbsent(buffer.capacity(), k -> new ArrayDeque<>()).addFirst(buffer);
        keptBytes += buffer.capacity();
    }

    /**
     * {@link #give} from any thread (a compression worker done with a message's payload): the
     * buffer goes back on the owner's thread, since one left to the collector holds its direct
     * memory until a collection runs.
     */
    void giveFromAnyThread(ByteBuffer buffer) {
        if (onOwnerThread.getAsBoolean()) {
            give(buffer);
        } else {
            ownerThread.execute(() -> give(buffer));
        }
    }

    /** Lets every free buffer go if direct memory was short since the last time: on this pool's thread (its timer, or a take). */
    void trimIfShort() {
        long now = DirectMemory.shortages();
        if (now != trimmedFor) {
            trimmedFor = now;
            free.clear();
            keptBytes = 0;
        }
    }

    /** Bytes waiting for reuse (for tests). */
    long keptBytes() {
        return keptBytes;
    }

    /**
     * The size of buffer that holds {@code capacity} bytes: the next multiple of 64 KiB up to 1 MiB,
     * then of 1 MiB, so a buffer exceeds what was asked by at most one step (powers of two could
     * nearly double it, and both the inbound budget and "memory follows bytes that arrived" count
     * what is held).
     */
    static int sizeFor(int capacity) {
        long step = capacity <= STEP_BYTES ? MIN_BYTES : STEP_BYTES;
        long rounded = Math.max(MIN_BYTES, ((long) capacity + step - 1) / step * step);
        return rounded > Integer.MAX_VALUE - 8 ? capacity : (int) rounded;
    }
}
