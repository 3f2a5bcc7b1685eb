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

    /** The most one write offers the socket (more than a socket buffer takes at once anyway). */
    static final int MAX_WRITE_BYTES = 256 * 1024;

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
     * which is the only remover, so the buffers gathered outside the lock stay at the head. Each
     * write offers at most {@link #MAX_WRITE_BYTES}, as views, so the JDK's per-thread direct copy of
     * a heap buffer stays that small (it would keep a 16 MiB one for good) and is not recopied whole
     * for every partial write. The socket is full when it took less than it was offered.
     */
    long writeTo(GatheringByteChannel channel, ByteBuffer[] gather) throws IOException {
        while (true) {
            int count = gatherHead(gather);
            if (count == 0) {
                return 0;
            }
            long offered = 0;
            for (int i = 0; i < count; i++) {
                offered += gather[i].remaining();
            }
            long written = channel.write(gather, 0, count);
            Arrays.fill(gather, 0, count, null);
            long left = removeWritten(written);
            if (left == 0 || written < offered) {
                return left;
            }
        }
    }

    /** Read-only views of the head of the queue, at most {@link #MAX_WRITE_BYTES} in all. */
    private synchronized int gatherHead(ByteBuffer[] gather) {
        int count = 0;
        long budget = MAX_WRITE_BYTES;
        for (ByteBuffer b : buffers) {
            if (budget == 0 || count == MAX_GATHER) {
                break;
            }
            ByteBuffer view = b.duplicate();
            view.limit((int) Math.min(b.limit(), b.position() + budget));
            budget -= view.remaining();
            gather[count++] = view;
        }
        return count;
    }

    /** Advances the queued buffers past {@code written} bytes and drops the finished ones. */
    private synchronized long removeWritten(long written) {
        queuedBytes -= written;
        long left = written;
        while (!buffers.isEmpty()) {
            ByteBuffer head = buffers.peekFirst();
            int step = (int) Math.min(left, head.remaining());
            head.position(head.position() + step);
            left -= step;
            if (head.hasRemaining()) {
                break;
            }
            buffers.pollFirst();
        }
        return queuedBytes;
    }
}
