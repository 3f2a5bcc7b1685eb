package wsjava.server;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * One sendmsg for several buffers, as NIO's gathering write does: direct buffers go into the iovec
 * array as they are; heap buffers are copied into a native scratch first (an iovec cannot point
 * into the Java heap), as far as it has room. One per loop, used on its thread only.
 */
final class GatherSend {

    private static final int MAX_IOVECS = OutboundQueue.MAX_GATHER;
    /** Heap bytes copied per call at most; what does not fit goes in the next write. */
    private static final int SCRATCH_BYTES = 64 * 1024;

    private final Arena arena = Arena.ofAuto();
    private final MemorySegment message = arena.allocate(56, 8);           // struct msghdr
    private final MemorySegment iovecs = arena.allocate(16L * MAX_IOVECS, 8);
    private final MemorySegment scratch = arena.allocate(SCRATCH_BYTES, 8);

    /** Lays out {@code srcs[from..to)} (the first has bytes left) for the next send, without moving them. */
    void prepare(ByteBuffer[] srcs, int from, int to) {
        int count = 0;
        long copied = 0;
        for (int i = from; i < to && count < MAX_IOVECS; i++) {
            ByteBuffer b = srcs[i];
            int len = b.remaining();
            if (len == 0) {
                continue;
            }
            long address;
            if (b.isDirect()) {
                MemorySegment segment = MemorySegment.ofBuffer(b);
                if (!segment.scope().isAlive()) {
                    throw new IllegalStateException("Already closed: a buffer of an arena that was closed");   // as a segment's downcall would
                }
                address = segment.address();
            } else {
                len = (int) Math.min(len, SCRATCH_BYTES - copied);
                if (len == 0) {
                    break;
                }
                MemorySegment.copy(MemorySegment.ofBuffer(b), 0, scratch, copied, len);
                address = scratch.address() + copied;
                copied += len;
            }
            iovecs.set(ValueLayout.JAVA_LONG, 16L * count, address);
            iovecs.set(ValueLayout.JAVA_LONG, 16L * count + 8, len);
            count++;
            if (len < b.remaining()) {
                break;          // the scratch is full: this buffer's rest waits, so no later one may go first
            }
        }
        message.fill((byte) 0);
        message.set(ValueLayout.ADDRESS, 16, iovecs);
        message.set(ValueLayout.JAVA_LONG, 24, count);
    }

    /** sendmsg of what was prepared, errno not captured; sendmsg's result. */
    long send(int fd) {
        try {
            return (long) Libc.SENDMSG_NOW.invokeExact(fd, message, Libc.MSG_NOSIGNAL);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same, with errno captured in {@code errno}. */
    long send(int fd, Libc.Errno errno) {
        try {
            return (long) Libc.SENDMSG.invokeExact(errno.state, fd, message, Libc.MSG_NOSIGNAL);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
