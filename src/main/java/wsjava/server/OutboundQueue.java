package wsjava.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Bytes waiting to go out on one connection. Any thread may append whole messages (so two
 * messages' frames never interleave); only the I/O thread writes. Writes gather up to 64 queued
 * buffers into one system call. A message may carry a future, completed once its last byte is
 * handed to the socket, or failed if the connection ends first.
 *
 * <p>What the queue holds is counted at its real cost ({@link #heldBytes()}: bytes plus a fixed
 * overhead per entry), beside its wire length ({@link #queuedBytes()}). Small frames without a
 * completion are copied back to back into shared chunks, so a flood of tiny echoes costs about its
 * wire length. Pongs are bounded too: up to {@link #PENDING_PONGS} wait, each answering its ping
 * (a client that sends a few pings in a row gets every answer); past that the newest takes the
 * place of the last one waiting (RFC 6455 section 5.5.3 lets a pong answer only the most recent
 * ping), so a ping flood never queues more than that many, however many pings arrive.
 */
final class OutboundQueue {

    /** Buffers gathered into one write; the array is the I/O thread's, shared by its connections. */
    static final int MAX_GATHER = 64;
    static final long BEHIND = -2;     // addWritingFirst: nothing written, as output was waiting already

    /** The most one write offers the socket (more than a socket buffer takes at once anyway). */
    static final int MAX_WRITE_BYTES = 256 * 1024;
    /** Pongs that may wait at once, each for its own ping; past this only the latest ping is answered. */
    static final int PENDING_PONGS = 16;
    /** Messages up to this long (and without a completion) share a chunk instead of taking an entry each. */
    static final int COALESCE_MAX_BYTES = 512;

    /** The entries, oldest first, linked through {@link OutboundEntry#next}: no collection to keep. */
    private OutboundEntry head;
    private OutboundEntry tail;
    /** Completions whose messages were written, completed outside the lock; the I/O thread's only, made at the first. */
    private List<CompletableFuture<Void>> written;
    private long queuedBytes;
    private long writtenBytes;
    private long heldBytes;
    /** The last pong queued (replaced by the next one once {@link #PENDING_PONGS} wait), or null. */
    private OutboundEntry lastPong;
    private int pendingPongs;       // queued and not yet written
    /** Set once a close frame is queued: nothing may follow it (RFC 6455 section 5.5.1). */
    private boolean closed;

    /** Appends a whole message's frames; returns the bytes now held (see {@link #heldBytes()}), or -1 after a close frame. */
    synchronized long add(byte[] bytes) { return add(bytes, null); }

    /** {@link #add(byte[])} with a completion for the message ({@code done} may be null). */
    synchronized long add(byte[] bytes, CompletableFuture<Void> done) {
        return add(new ByteBuffer[] {ByteBuffer.wrap(bytes)}, done);
    }

    /**
     * A message in parts (a frame header, then the caller's payload, not copied unless it is small),
     * queued together so no other message comes between them; {@code done} completes with the last part.
     */
    synchronized long add(ByteBuffer[] parts, CompletableFuture<Void> done) {
        if (closed) {
            return -1;
        }
        if (done == null && BufferParts.lengthOf(parts) <= COALESCE_MAX_BYTES) {
            coalesce(parts);
            return heldBytes;
        }
        for (int i = 0; i < parts.length; i++) {
            push(OutboundEntry.of(parts[i], i == parts.length - 1 ? done : null));
        }
        return heldBytes;
    }

    /** Copies a small message into the last chunk, or a new one. */
    private void coalesce(ByteBuffer[] parts) {
        long length = BufferParts.lengthOf(parts);
        if (tail == null || !tail.fits(length)) {
            push(OutboundEntry.newChunk());
        }
        tail.append(parts);
        queuedBytes += length;
    }

    private void push(OutboundEntry entry) {
        if (tail == null) {
            head = entry;
        } else {
            tail.next = entry;
        }
        tail = entry;
        queuedBytes += entry.bytes.remaining();
        heldBytes += entry.cost;
    }

    /**
     * Queues a pong; once {@link #PENDING_PONGS} wait, it takes the place of the last one (still
     * untouched), so a flood of pings queues no more. Only the I/O thread calls this (pings are read
     * there), so no write is in progress while a pong's bytes are replaced. Returns the bytes held,
     * or -1 after a close frame.
     */
    synchronized long addPong(byte[] frame) {
        if (closed) {
            return -1;
        }
        if (pendingPongs >= PENDING_PONGS && lastPong != null && lastPong.untouched()) {
            queuedBytes += lastPong.replacePong(frame);
        } else {
            lastPong = OutboundEntry.newPong(frame);
            pendingPongs++;
            push(lastPong);
        }
        return heldBytes;
    }

    /**
     * The I/O thread's write-through: when nothing is queued, writes {@code parts} now (a heap part
     * offered only up to {@link #MAX_WRITE_BYTES}, which the JDK would copy whole), then queues a
     * copy of what the socket did not take, so the caller may reuse its buffers at once. A write
     * error is not raised here: everything unwritten is queued and the flush that follows meets it.
     * Returns the bytes written now, {@link #BEHIND} when output was waiting already (all of it is
     * queued behind), or -1 after a close frame.
     */
    synchronized long addWritingFirst(GatheringByteChannel channel, ByteBuffer[] parts) {
        if (closed) {
            return -1;
        }
        long wrote = BEHIND;
        if (head == null) {
            try {
                wrote = channel.write(BufferParts.offerable(parts, MAX_WRITE_BYTES), 0, parts.length);
            } catch (IOException e) {
                wrote = 0;
            }
            BufferParts.skip(parts, wrote);
        }
        queueCopyOf(parts);
        return wrote;
    }

    /** Queues a copy of what is left of {@code parts} (the caller reuses its buffers): into the last chunk when small. */
    private void queueCopyOf(ByteBuffer[] parts) {
        long rest = BufferParts.lengthOf(parts);
        if (rest > COALESCE_MAX_BYTES) {
            push(OutboundEntry.of(BufferParts.copyOf(parts), null));
        } else if (rest > 0) {
            coalesce(parts);
        }
    }

    /** {@link #addWritingFirst(GatheringByteChannel, ByteBuffer[])} for one small frame in a scratch buffer: one plain write. */
    synchronized long addWritingFirst(GatheringByteChannel channel, ByteBuffer frame) {
        if (closed) {
            return -1;
        }
        long wrote = BEHIND;
        if (head == null) {
            try {
                wrote = channel.write(frame);
            } catch (IOException e) {
                wrote = 0;
            }
        }
        if (frame.hasRemaining()) {
            queueCopyOf(new ByteBuffer[] {frame});
        }
        return wrote;
    }

    /** Appends the close frame; false if one was queued already. */
    synchronized boolean addClose(byte[] frame) {
        if (closed) {
            return false;
        }
        closed = true;
        push(OutboundEntry.of(ByteBuffer.wrap(frame), null));
        return true;
    }

    /** Whether the last bytes are out: a close frame was queued and all of it written (or the queue discarded); one check, under the lock. */
    synchronized boolean finished() {
        return closed && queuedBytes == 0;
    }

    /** Bytes queued and not yet taken by the socket (their wire length). */
    synchronized long queuedBytes() { return queuedBytes; }
    /** Bytes the socket took from the queue so far (not what a write-through sent past it). */
    synchronized long writtenBytes() { return writtenBytes; }

    /** What the queue holds in memory: each entry's buffer plus {@link OutboundEntry#OVERHEAD}. */
    synchronized long heldBytes() { return heldBytes; }

    /** Drops everything and accepts nothing more; the messages' completions fail. */
    void discard() {
        List<CompletableFuture<Void>> unsent = new ArrayList<>();
        synchronized (this) {
            for (OutboundEntry e = head; e != null; e = e.next) {
                if (e.done != null) {
                    unsent.add(e.done);
                }
            }
            head = null;
            tail = null;
            queuedBytes = 0;
            heldBytes = 0;
            lastPong = null;
            pendingPongs = 0;
            closed = true;
        }
        IOException closedFirst = new IOException("the connection closed before the message was sent");
        for (CompletableFuture<Void> done : unsent) {
            done.completeExceptionally(closedFirst);
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
            if (written != null && !written.isEmpty()) {
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
        for (OutboundEntry e = head; e != null; e = e.next) {
            if (budget == 0 || count == MAX_GATHER) {
                break;
            }
            ByteBuffer view = e.bytes.duplicate();
            view.limit((int) Math.min(e.bytes.limit(), e.bytes.position() + budget));
            budget -= view.remaining();
            gather[count++] = view;
        }
        return count;
    }

    /** Advances the queued buffers past {@code bytes} written and drops the finished ones. */
    private synchronized long removeWritten(long bytes) {
        writtenBytes += bytes;
        long left = bytes;
        while (head != null) {
            OutboundEntry first = head;
            int step = (int) Math.min(left, first.bytes.remaining());
            first.bytes.position(first.bytes.position() + step);
            left -= step;
            queuedBytes -= step;        // per entry: a queue discarded during the write has none left to count
            if (first.bytes.hasRemaining()) {
                break;
            }
            head = first.next;
            first.next = null;
            if (head == null) {
                tail = null;
            }
            heldBytes -= first.cost;
            if (first.pong) {
                pendingPongs--;
                if (first == lastPong) {
                    lastPong = null;
                }
            }
            if (first.done != null) {
                if (written == null) {
                    written = new ArrayList<>(2);
                }
                written.add(first.done);
            }
        }
        return queuedBytes;
    }
}
