package wsjava.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Bytes waiting to go out on one connection. Any thread may append whole messages (so two
 * messages' frames never interleave); only the I/O thread writes. Writes gather up to 64 queued
 * buffers into one system call.
 */
final class OutboundQueue {

    /** Buffers gathered into one write; the array is the I/O thread's, shared by its connections. */
    static final int MAX_GATHER = 64;

    private final ArrayDeque<ByteBuffer> buffers = new ArrayDeque<>(4);
    private long queuedBytes;
    /** Set once a close frame is queued: nothing may follow it (RFC 6455 section 5.5.1). */
    private boolean closed;

    /** Appends a whole message's frames; returns the bytes now queued, or -1 after a close frame. */
    synchronized long add(byte[] bytes) {
        if (closed) {
            return -1;
        }
        buffers.add(ByteBuffer.wrap(bytes));
        queuedBytes += bytes.length;
        return queuedBytes;
    }

    /** Appends the close frame; false if one was queued already. */
    synchronized boolean addClose(byte[] frame) {
        if (closed) {
            return false;
        }
        closed = true;
        buffers.add(ByteBuffer.wrap(frame));
        queuedBytes += frame.length;
        return true;
    }

    synchronized long queuedBytes() {
        return queuedBytes;
    }

    /** Drops everything and accepts nothing more. */
    synchronized void discard() {
        buffers.clear();
        queuedBytes = 0;
        closed = true;
    }

    /**
     * Writes what the socket takes; returns the bytes still queued. Called only on the I/O thread,
     * which is the only remover, so the buffers gathered outside the lock stay at the head.
     */
    long writeTo(GatheringByteChannel channel, ByteBuffer[] gather) throws IOException {
        while (true) {
            int count = gatherHead(gather);
            if (count == 0) {
                return 0;
            }
            long written = channel.write(gather, 0, count);
            boolean socketFull = gather[count - 1].hasRemaining();
            Arrays.fill(gather, 0, count, null);
            long left = removeWritten(written);
            if (left == 0 || socketFull) {
                return left;
            }
        }
    }

    private synchronized int gatherHead(ByteBuffer[] gather) {
        int count = 0;
        for (ByteBuffer b : buffers) {
            gather[count++] = b;
            if (count == MAX_GATHER) {
                break;
            }
        }
        return count;
    }

    private synchronized long removeWritten(long written) {
        queuedBytes -= written;
        while (!buffers.isEmpty() && !buffers.peekFirst().hasRemaining()) {
            buffers.pollFirst();
        }
        return queuedBytes;
    }
}
