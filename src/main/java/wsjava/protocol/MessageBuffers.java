package wsjava.protocol;

import java.nio.ByteBuffer;

/**
 * Where a {@link MessageAssembler} gets the buffers for binary messages it assembles outside the
 * heap (a server's pooled direct buffers, so an echo is written without the JDK's copy). Every
 * buffer taken is given back exactly once: when a larger one replaces it, after the handler's
 * call, or when the connection ends.
 */
public interface MessageBuffers {

    /**
     * A buffer of at least {@code capacity} bytes, position 0 and limit its capacity; or null when
     * none can be had now (direct memory is short): the assembler then goes on in an array.
     */
    ByteBuffer take(int capacity);

    /**
     * The capacity of the buffer {@code take(capacity)} gives (a pool's sizes round up): what the
     * assembler must have granted before it asks, since budgets count what is held, not what was asked.
     */
    int sizeOf(int capacity);

    /** A buffer from {@link #take} that the assembler no longer uses. */
    void give(ByteBuffer buffer);
}
