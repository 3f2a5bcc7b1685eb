package wsjava.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Bytes waiting to go out on one connection. Any thread may append whole messages (so two
 * messages' frames never interleave); only the I/O thread writes. Writes gather up to 64 queued
 * buffers into one system call. A message may carry a future, completed once its last byte is
 * handed to the socket, or failed if the connection ends first.
 */
final class OutboundQueue {

    /** Buffers gathered into one write; the array is the I/O thread's, shared by its connections. */
    static final int MAX_GATHER = 64;

    /** The most one write offers the socket (more than a socket buffer takes at once anyway). */
    static final int MAX_WRITE_BYTES = 256 * 1024;

    private final ArrayDeque<ByteBuffer> buffers = new ArrayDeque<>(4);
    /** One entry per buffer, in step with {@code buffers}: its completion, or null. */
    private final ArrayDeque<CompletableFuture<Void>> completions = new ArrayDeque<>(4);
    /** Completions whose messages were written, completed outside the lock; the I/O thread's only. */
    private final List<CompletableFuture<Void>> written = new ArrayList<>();
    private long queuedBytes;
    /** Set once a close frame is queued: nothing may follow it (RFC 6455 section 5.5.1). */
    private boolean closed;

    /** Appends a whole message's frames; returns the bytes now queued, or -1 after a close frame. */
    synchronized long add(byte[] bytes) {
        return add(bytes, null);
    }

    /** {@link #add(byte[])} with a completion for the message ({@code done} may be null). */
    synchronized long add(byte[] bytes, CompletableFuture<Void> done) {
        return add(new ByteBuffer[] {ByteBuffer.wrap(bytes)}, done);
    }

    /**
     * A message in parts (a frame header, then the caller's payload, not copied), queued together
     * so no other message comes between them; {@code done} completes with the last part.
     */
    synchronized long add(ByteBuffer[] parts, CompletableFuture<Void> done) {
        if (closed) {
            return -1;
        }
        for (int i = 0; i < parts.length; i++) {
            buffers.add(parts[i]);
            completions.add(i == parts.length - 1 && done != null ? done : NONE);
            queuedBytes += parts[i].remaining();
        }
        return queuedBytes;
    }

    /**
     * The I/O thread's write-through: when nothing is queued, writes {@code parts} now (a heap part
     * offered only up to {@link #MAX_WRITE_BYTES}, which the JDK would copy whole), then queues a
     * copy of what the socket did not take, so the caller may reuse its buffers at once. A write
     * error is not raised here: everything unwritten is queued and the flush that follows meets it.
     * Returns the bytes written now, or -1 after a close frame.
     */
    synchronized long addWritingFirst(GatheringByteChannel channel, ByteBuffer[] parts) {
        if (closed) {
            return -1;
        }
        long written = 0;
        if (buffers.isEmpty()) {
            try {
                written = channel.write(offerable(parts), 0, parts.length);
            } catch (IOException e) {
                written = 0;
            }
            skip(parts, written);
        }
        if (lengthOf(parts) > 0) {
            ByteBuffer rest = copyOf(parts);
            buffers.add(rest);
            completions.add(NONE);
            queuedBytes += rest.remaining();
        }
        return written;
    }

    /** Views of {@code parts} that offer at most {@link #MAX_WRITE_BYTES} of heap bytes in all. */
    private static ByteBuffer[] offerable(ByteBuffer[] parts) {
        ByteBuffer[] views = new ByteBuffer[parts.length];
        long heapBudget = MAX_WRITE_BYTES;
        for (int i = 0; i < parts.length; i++) {
            views[i] = parts[i].duplicate();
            if (!parts[i].isDirect()) {
                int offered = (int) Math.min(parts[i].remaining(), heapBudget);
                views[i].limit(parts[i].position() + offered);
                heapBudget -= offered;
            }
        }
        return views;
    }

    /** Moves the parts' positions past {@code bytes} written. */
    private static void skip(ByteBuffer[] parts, long bytes) {
        for (ByteBuffer part : parts) {
            int step = (int) Math.min(bytes, part.remaining());
            part.position(part.position() + step);
            bytes -= step;
        }
    }

    static long lengthOf(ByteBuffer[] parts) {
        long length = 0;
        for (ByteBuffer part : parts) {
            length += part.remaining();
        }
        return length;
    }

    /** The parts' remaining bytes, copied into one buffer (their positions move to their limits). */
    static ByteBuffer copyOf(ByteBuffer[] parts) {
        byte[] copy = new byte[(int) lengthOf(parts)];
        int at = 0;
        for (ByteBuffer part : parts) {
            int n = part.remaining();
            part.get(copy, at, n);
            at += n;
        }
        return ByteBuffer.wrap(copy);
    }

    /** Stands for "no completion" in the deque (which holds no nulls). */
    private static final CompletableFuture<Void> NONE = new CompletableFuture<>();

    /** Appends the close frame; false if one was queued already. */
    synchronized boolean addClose(byte[] frame) {
        if (closed) {
            return false;
        }
        closed = true;
        buffers.add(ByteBuffer.wrap(frame));
        completions.add(NONE);
        queuedBytes += frame.length;
        return true;
    }

    synchronized long queuedBytes() {
        return queuedBytes;
    }

    /** Drops everything and accepts nothing more; the messages' completions fail. */
    void discard() {
        List<CompletableFuture<Void>> unsent;
        synchronized (this) {
            unsent = new ArrayList<>(completions);
            buffers.clear();
            completions.clear();
            queuedBytes = 0;
            closed = true;
        }
        IOException closedFirst = new IOException("the connection closed before the message was sent");
        for (CompletableFuture<Void> done : unsent) {
            if (done != NONE) {
                done.completeExceptionally(closedFirst);
            }
        }
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
            long bytes = channel.write(gather, 0, count);
            Arrays.fill(gather, 0, count, null);
            long left = removeWritten(bytes);
            if (!written.isEmpty()) {
                written.forEach(done -> done.complete(null));   // outside the lock: callbacks may send
                written.clear();
            }
            if (left == 0 || bytes < offered) {
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

    /** Advances the queued buffers past {@code bytes} written and drops the finished ones. */
    private synchronized long removeWritten(long bytes) {
        queuedBytes -= bytes;
        long left = bytes;
        while (!buffers.isEmpty()) {
            ByteBuffer head = buffers.peekFirst();
            int step = (int) Math.min(left, head.remaining());
            head.position(head.position() + step);
            left -= step;
            if (head.hasRemaining()) {
                break;
            }
            buffers.pollFirst();
            CompletableFuture<Void> done = completions.pollFirst();
            if (done != NONE) {
                written.add(done);
            }
        }
        return queuedBytes;
    }
}
