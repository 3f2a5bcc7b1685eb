package wsjava.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import wsjava.protocol.CloseCodes;

/**
 * The sending half of a connection: whole encoded messages queued from any thread, written by the
 * I/O thread once per pass. It applies the slow-consumer policy (a client with more than the
 * outbound limit unsent is dropped) and back-pressure (while much waits to be sent, the client is
 * not read), and ends the connection once its last bytes are out.
 *
 * <p>What its queue holds in memory is counted in the server's {@link OutputBudget}. While that
 * is spent, a client whose output has taken nothing for {@link #STALL_NANOS} is dropped (1008),
 * so clients that never read cannot hold the server's memory between them; meanwhile what it holds
 * past the budget is taken from the inbound budget's room ({@link InboundBudget}).
 */
final class Outbox {

    /** Its transport, loop, read gate, settings and server are the connection's: not kept again here. */
    private final ServerConnection connection;
    private final OutboundQueue queue = new OutboundQueue();
    /** How long output may wait with nothing taken before its client counts as stalled. */
    static final long STALL_NANOS = 1_000_000_000L;
    /** The held bytes last counted in the budget. */
    private long reported;
    /** When output last moved: bytes were written, or output began to wait. */
    private volatile long lastProgressNanos = System.nanoTime();
    /** 1 while a flush is requested and not yet begun (a field and an updater: no atomic object per connection). */
    private volatile int flushRequested;
    private static final AtomicIntegerFieldUpdater<Outbox> FLUSH_REQUESTED = AtomicIntegerFieldUpdater.newUpdater(Outbox.class, "flushRequested");
    /** Payloads of this connection's messages held elsewhere until queued (waiting for a compression worker). */
    private volatile long elsewhere;
    private static final AtomicLongFieldUpdater<Outbox> ELSEWHERE = AtomicLongFieldUpdater.newUpdater(Outbox.class, "elsewhere");
    /** Close TCP once the queue is written; with {@code lingerAfterFlush}, after draining the peer. */
    private boolean closeAfterFlush;
    private boolean lingerAfterFlush;
    /** More than the writable threshold is queued; cleared (and the listener told) once half of it is written. */
    private volatile boolean unwritable;

    Outbox(ServerConnection connection) {
        this.connection = connection;
    }

    /** The server's output budget: what every connection's queue holds. */
    private OutputBudget output() { return connection.server.limits().output; }

    private ServerConfig config() { return connection.config; }

    long queuedBytes() { return queue.queuedBytes(); }

    /** What this connection's output holds in memory: the queue (see {@link OutboundQueue#heldBytes()}) and payloads not yet queued. */
    long heldBytes() { return queue.heldBytes() + elsewhere; }

    /**
     * Counts (or with a negative {@code bytes}, stops counting) a payload held until it is queued: in
     * this connection's output, and in the server's inbound budget, so that while compressions wait,
     * no connection assembles more than the budget allows.
     */
    void holdElsewhere(long bytes) {
        ELSEWHERE.addAndGet(this, bytes);
        connection.server.limits().inbound.add(bytes, 0);     // a backlog of compressions is memory like any other
    }

    /** Brings the output budget up to date with what the queue holds now. */
    private synchronized void report() {
        long now = queue.heldBytes();
        if (now != reported) {      // an echo written through holds nothing: spare the shared counter
            output().add(now - reported);
            reported = now;
        }
    }

    /** Output that starts waiting now has not stalled yet, however long ago it last moved. */
    private void noteWaitingStarts() {
        if (queue.queuedBytes() == 0) {
            lastProgressNanos = System.nanoTime();
        }
    }

    /**
     * Whether to shed this client: the output budget is spent and its output took nothing for {@link #STALL_NANOS},
     * whatever it holds (past the budget, output shrinks the inbound room: small holders would stop everyone),
     * unless the server holds its input for room (a client blocked writing to us cannot read).
     */
    boolean stalledWhileBudgetSpent(long nowNanos) {
        return output().over() && queue.queuedBytes() > 0 && nowNanos - lastProgressNanos > STALL_NANOS
                && (heldBytes() > config().readPauseBytes() || !connection.input.carrying());
    }

    /** Whether output waits (queued, or TLS records in the transport) and moved within the last {@code nanos}: a peer still reading. */
    boolean movingWithin(long nowNanos, long nanos) {
        return hasOutput() && nowNanos - lastProgressNanos < nanos;
    }

    /** Output waits: in the queue, or as TLS records the socket has not taken yet. */
    boolean hasOutput() {
        return queue.queuedBytes() > 0 || connection.transport.hasPendingOutput();
    }

    boolean onIoThread() {
        return connection.loop.inLoop();
    }

    /** False while more than the writable threshold waits; the listener hears when it is true again. */
    boolean isWritable() {
        return !unwritable;
    }

    /** Queues bytes; false after a close frame, or when the client is too slow (it is then dropped). */
    boolean enqueue(byte[] bytes) {
        return enqueue(bytes, null);
    }

    /** {@link #enqueue(byte[])}, with a completion for when the bytes are written (it fails when not queued). */
    boolean enqueue(byte[] bytes, CompletableFuture<Void> done) {
        return enqueue(new ByteBuffer[] {ByteBuffer.wrap(bytes)}, done);
    }

    /** A message in parts (header, then a payload that is not copied); see {@link OutboundQueue#add(ByteBuffer[], CompletableFuture)}. */
    boolean enqueue(ByteBuffer[] parts, CompletableFuture<Void> done) {
        noteWaitingStarts();
        long held = queue.add(parts, done);
        return afterAdding(held < 0 ? held : held + elsewhere, done);
    }

    /**
     * Sends a message from buffers the caller will reuse. On the I/O thread of a plain socket with
     * nothing queued, the message is written at once and only what the socket did not take is
     * copied and queued (an echo's payload goes from the read buffer to the socket untouched);
     * otherwise all of it is copied and queued. TLS always queues: its records are written by flush.
     */
    boolean sendNow(ByteBuffer[] parts) {
        if (!writesThroughNow()) {
            return enqueue(new ByteBuffer[] {BufferParts.copyOf(parts)}, null);
        }
        long length = BufferParts.lengthOf(parts);
        return afterWritingFirst(queue.addWritingFirst(connection.transport, parts), length);
    }

    /** Whether {@link #sendNow(ByteBuffer)} may be used now: this is the I/O thread of a plain socket. */
    boolean writesThroughNow() {
        return connection.loop.inLoop() && connection.transport.writesThrough();
    }

    /** The I/O thread's scratch for one small frame (cleared), to lay out for {@link #sendNow(ByteBuffer)}. */
    ByteBuffer smallFrameScratch() {
        return connection.loop.buffers().smallFrame.clear();
    }

    /** {@link #sendNow(ByteBuffer[])} for one frame laid out in {@link #smallFrameScratch()}, when {@link #writesThroughNow()}. */
    boolean sendNow(ByteBuffer frame) {
        int length = frame.remaining();      // before the write moves it
        return afterWritingFirst(queue.addWritingFirst(connection.transport, frame), length);
    }

    /** After a write-through: nothing to decide for a message that went out whole; output that did not wait and waits now began to wait. */
    private boolean afterWritingFirst(long written, long length) {
        if (written == -1) {
            return afterAdding(-1, null);
        }
        if (written == OutboundQueue.BEHIND) {
            return afterAdding(heldBytes(), null);
        }
        connection.server.stats().count(connection.loop, LoopCounters.BYTES_OUT, written);
        if (written == length && elsewhere == 0) {
            return true;
        }
        if (written < length) {
            lastProgressNanos = System.nanoTime();
        }
        return afterAdding(heldBytes(), null);
    }

    /** Queues a pong in place of one still waiting (see {@link OutboundQueue#addPong}); on the I/O thread. */
    boolean enqueuePong(byte[] frame) {
        noteWaitingStarts();
        long held = queue.addPong(frame);
        return afterAdding(held < 0 ? held : held + elsewhere, null);
    }

    /** The policies after a message was queued ({@code queued}: bytes held now, -1 when refused). */
    private boolean afterAdding(long queued, CompletableFuture<Void> done) {
        report();
        if (queued < 0) {
            if (done != null) {
                done.completeExceptionally(new java.io.IOException("the connection is closing"));
            }
            return false;
        }
        if (queued > config().writableThresholdBytes()) {
            unwritable = true;
        }
        if (queued > config().outboundLimitBytes()) {
            return dropSlowClient("client too slow: over " + config().outboundLimitBytes() + " bytes of output held", done);
        }
        if (output().over() && stalledWhileBudgetSpent(System.nanoTime())) {    // over() first: no clock read per message
            return dropSlowClient(STALLED_REASON, done);
        }
        if (queued > 0) {
            requestFlush();
        }
        return true;
    }

    /** Queues the close frame; false if one was queued already. Nothing may follow it. */
    boolean enqueueClose(byte[] frame) {
        if (!queue.addClose(frame)) {
            return false;
        }
        requestFlush();
        return true;
    }

    /** Ends the connection once everything queued is written: at once, or after a lingering close. */
    void closeWhenWritten(boolean linger) {
        closeAfterFlush = true;
        lingerAfterFlush |= linger;
        requestFlush();
    }

    /** A send the compression lane had taken failed there: the connection ends ({@link ConnectionStateMachine#sendFailed}). */
    void laneSendFailed(Throwable e) {
        connection.loop.execute(() -> connection.sendFailed(e));
    }

    static final String STALLED_REASON = "client too slow: it read nothing for a second while the server's output budget was spent";

    private boolean dropSlowClient(String reason, CompletableFuture<Void> done) {
        queue.discard();
        report();
        if (done != null) {
            done.completeExceptionally(new java.io.IOException(reason));
        }
        // Later, not inline: a send may hold a compressor's lock here, and the drop calls the listener's onClose.
        connection.loop.executeLater(() -> connection.drop(CloseCodes.POLICY_VIOLATION, reason));
        return false;
    }

    void discard() {
        queue.discard();
        report();
    }

    void requestFlush() {
        if (FLUSH_REQUESTED.compareAndSet(this, 0, 1)) {
            connection.loop.flushSoon(connection);
        }
    }

    /** Writes what the socket takes now; called by the I/O thread when asked or when writable. */
    void flush(boolean open, boolean closing) {
        flushRequested = 0;
        long left;
        boolean pending;
        try {
            long writtenBefore = queue.writtenBytes();      // not "queued before minus after": a worker may queue meanwhile
            long pendingBefore = connection.transport.pendingBytes();
            left = connection.transport.flushPending() ? queue.writeTo(connection.transport, connection.loop.buffers().gather) : queue.queuedBytes();
            long sent = queue.writtenBytes() - writtenBefore;
            connection.server.stats().count(connection.loop, LoopCounters.BYTES_OUT, sent);
            if (sent > 0 || connection.transport.pendingBytes() < pendingBefore) {     // TLS: the socket took records made earlier
                lastProgressNanos = System.nanoTime();
            }
            pending = connection.transport.hasPendingOutput();
        } catch (IOException e) {
            connection.lost("connection lost while writing: " + e.getMessage(), e);
            return;
        }
        // Not "left == 0 and a close frame was queued": a worker may have queued the last message and the close frame since that write.
        if (!pending && closeAfterFlush && queue.finished()) {
            if (lingerAfterFlush) {
                connection.linger();
            } else {
                connection.closeChannel();
            }
            return;
        }
        connection.socket.watchWrites(left > 0 || pending);
        report();
        long held = heldBytes();
        if (unwritable && held <= config().writableThresholdBytes() / 2) {
            unwritable = false;
            connection.becameWritable();
        }
        if (open && !connection.reading.isHeld() && held > config().readPauseBytes()) {
            connection.reading.hold();          // the peer isn't reading: stop reading from it too
        } else if ((open || closing) && !closeAfterFlush && connection.reading.isHeld() && held <= config().readPauseBytes() / 2) {
            connection.reading.release();       // also after our close frame: the peer's reply to it must be read
        }
    }

    /** Output is done (lingering): no more write interest. */
    void stopWriting() {
        connection.socket.watchWrites(false);
    }
}
