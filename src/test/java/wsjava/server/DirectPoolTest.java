package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The I/O thread's pool of direct buffers, and a connection's share of it. */
class DirectPoolTest {

    private boolean owner = true;
    private final DirectPool pool = new DirectPool(() -> owner, Runnable::run);

    @Test
    void sizesAreSteps64KiBUpTo1MiBThenWholeMiBAndGivenBuffersAreReused() {
        ByteBuffer small = pool.take(10);
        assertEquals(64 * 1024, small.capacity());
        assertTrue(small.isDirect());
        assertEquals(576 * 1024, pool.take((1 << 19) + 1).capacity(), "512 KiB + 1 byte: one step of 64 KiB more");
        assertEquals(1 << 20, DirectPool.sizeFor(1 << 20));
        assertEquals(3 << 20, DirectPool.sizeFor((2 << 20) + 1), "a 3 MiB message is not held in 4 MiB");
        assertEquals(Integer.MAX_VALUE - 8, DirectPool.sizeFor(Integer.MAX_VALUE - 8));
        small.position(100);
        pool.give(small);
        assertEquals(64 * 1024, pool.keptBytes());
        ByteBuffer again = pool.take(60_000);
        assertSame(small, again);
        assertEquals(0, again.position(), "handed out cleared");
        assertEquals(0, pool.keptBytes());
    }

    @Test
    void keepsAtMostTheCapAndNothingGivenFromAnotherThread() {
        List<ByteBuffer> taken = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            taken.add(pool.take(1 << 20));
        }
        taken.forEach(pool::give);
        assertEquals(DirectPool.MAX_KEPT_BYTES, pool.keptBytes());
        DirectPool other = new DirectPool(() -> owner, Runnable::run);
        ByteBuffer b = other.take(1);
        owner = false;
        other.give(b);
        assertEquals(0, other.keptBytes(), "a buffer given from another thread is left to the collector");
    }

    @Test
    void aBufferKeptForSendingGoesBackOnlyOnceItIsSent() {
        ConnectionBuffers buffers = new ConnectionBuffers(pool);
        ByteBuffer message = buffers.take(100_000);
        ByteBuffer kept = buffers.keepForSending();
        assertSame(message, kept);
        buffers.give(message);              // the assembler, after the listener's call
        assertEquals(0, pool.keptBytes(), "still queued: not back in the pool");
        assertNotSame(message, pool.take(100_000), "so the next message gets another buffer");
        buffers.sent(kept);
        assertEquals(message.capacity(), pool.keptBytes());
    }

    @Test
    void aBufferNotKeptGoesBackAfterTheCall() {
        ConnectionBuffers buffers = new ConnectionBuffers(pool);
        ByteBuffer message = buffers.take(100_000);
        buffers.give(message);
        assertEquals(message.capacity(), pool.keptBytes());
    }
}
