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
    /**
     * A small frame laid out whole (header, then payload) to go out in one write of one buffer: a
     * gathering write of the two costs the JDK an iovec array and the kernel a writev, more than
     * copying a payload up to {@link #SMALL_FRAME_PAYLOAD} bytes (64 B echo, JFR: 17% of the
     * server's Java time was in the gathering write).
     */
    final ByteBuffer smallFrame = ByteBuffer.allocateDirect(SMALL_FRAME_PAYLOAD + 4);
    static final int SMALL_FRAME_PAYLOAD = 2048;
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
