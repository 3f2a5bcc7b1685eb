package wsjava.server;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import wsjava.protocol.MessageBuffers;

/**
 * A connection's share of its I/O thread's {@link DirectPool}: the assembler takes buffers for
 * binary messages here and gives them back after the listener's call, except the one the listener
 * sent on from its callback ({@link #keepForSending}), which goes back once it is written (once it
 * is compressed, when it goes out compressed), through the pool's own thread.
 */
final class ConnectionBuffers implements MessageBuffers {

    private final DirectPool pool;
    /** The buffer the assembler holds now, and the one kept for sending (if any). */
    private ByteBuffer current;
    private ByteBuffer keptForSending;

    ConnectionBuffers(DirectPool pool) {
        this.pool = pool;
    }

    /** A pooled buffer, or null when direct memory is short now (the message then goes on in an array). */
    @Override
    public ByteBuffer take(int capacity) {
        ByteBuffer taken = pool.take(capacity);
        if (taken != null) {
            current = taken;
        }
        return taken;
    }

    @Override
    public int sizeOf(int capacity) {
        return DirectPool.sizeFor(capacity);
    }

    @Override
    public void give(ByteBuffer buffer) {
        if (buffer == current) {
            current = null;
        }
        if (buffer == keptForSending) {
            keptForSending = null;      // the send gives it back once written
            return;
        }
        pool.give(buffer);
    }

    /**
     * The buffer of the message being delivered is queued to be sent as it is: the assembler's
     * give after the callback must not return it. Returns the buffer, for the send to give back.
     */
    ByteBuffer keepForSending() {
        keptForSending = current;
        return current;
    }

    /** Returns a buffer kept for sending, once its bytes are written, compressed or dropped (from any thread). */
    void sent(ByteBuffer buffer) {
        pool.giveFromAnyThread(buffer);
    }

    /**
     * Keeps the buffer of the message being delivered from the pool until the returned future
     * completes (its bytes written, or dropped with the connection); the send completes it.
     */
    CompletableFuture<Void> keepUntilSent() {
        ByteBuffer kept = keepForSending();
        CompletableFuture<Void> sent = new CompletableFuture<>();
        sent.whenComplete((ok, failed) -> sent(kept));
        return sent;
    }
}
