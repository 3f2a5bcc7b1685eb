package wsjava.server;

import java.nio.ByteBuffer;
import wsjava.protocol.MessageInflater;

/**
 * The buffers one I/O thread shares among its connections, whose calls never overlap: the read
 * buffer, the gather array for writes, the TLS ciphertext scratch both ways, the inflation step and
 * the pool of direct buffers for assembled messages. Only the loop's own thread uses them.
 */
final class LoopBuffers {

    static final int READ_BUFFER_BYTES = 512 * 1024;

    /**
     * Direct, so the socket reads straight into it and frames are unmasked where they landed (a heap
     * buffer costs the JDK a copy per read); as large as uWebSockets' so a big message takes few reads.
     */
    final ByteBuffer read = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
    final ByteBuffer[] gather = new ByteBuffer[OutboundQueue.MAX_GATHER];
    /** Every inflater of this thread steps through it (a step is handed on at once). */
    final byte[] inflateStep = MessageInflater.stepBuffer();
    /** Direct buffers for messages its connections assemble (when their listener reads buffers). */
    final DirectPool directPool;
    private ByteBuffer tlsIn;
    private ByteBuffer tlsOut;

    LoopBuffers(DirectPool directPool) {
        this.directPool = directPool;
    }

    /** Scratch for received TLS ciphertext; cleared, at least {@code capacity}. */
    ByteBuffer tlsIn(int capacity) {
        if (tlsIn == null || tlsIn.capacity() < capacity) {
            tlsIn = ByteBuffer.allocate(capacity);
        }
        return tlsIn.clear();
    }

    /** Scratch for TLS ciphertext being made; cleared, at least {@code capacity}. */
    ByteBuffer tlsOut(int capacity) {
        if (tlsOut == null || tlsOut.capacity() < capacity) {
            tlsOut = ByteBuffer.allocate(capacity);
        }
        return tlsOut.clear();
    }
}
