package wsjava.server;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.MessageDeflater;
import wsjava.protocol.OpCode;

/**
 * Turns a connection's outgoing data messages into frames and queues them: compressed when
 * permessage-deflate was agreed and the message reaches the threshold, plain otherwise. With
 * context takeover a compressed message refers back to earlier ones, so compressing and queueing
 * happen under one lock: the peer inflates them in the order they were compressed. A large message
 * to compress that is sent from the I/O thread is compressed on a worker ({@link CompressionLane}),
 * and sends made meanwhile follow it there, so order is kept; its bytes count as the connection's
 * held output until then. The close frame follows them there too ({@link #enqueueClose}).
 */
final class MessageEncoder {

    private final FrameWriter writer;
    private final Outbox outbox;
    /** Null when permessage-deflate was not agreed. */
    private final MessageDeflater deflater;
    /** The threshold and the idle release, read only with a {@link #deflater}. */
    private final Compression settings;
    /** Null with {@link #deflater}: only compressed messages go to a worker (and a lane costs an idle connection 136 bytes). */
    private final CompressionLane lane;

    MessageEncoder(FrameWriter writer, Outbox outbox, MessageDeflater deflater, Compression settings) {
        this.writer = writer;
        this.outbox = outbox;
        this.deflater = deflater;
        this.lane = deflater == null ? null : new CompressionLane(outbox::laneSendFailed);
        this.settings = settings;
    }

    boolean compresses(int length) {
        return deflater != null && length >= settings.thresholdBytes();
    }

    /**
     * Queues one message; false when the outbox refused it (see {@link Outbox#enqueue}). The caller
     * may reuse {@code payload} at once ({@code owned}: it will not, so no copy is made for a worker).
     */
    boolean enqueue(int opcode, byte[] payload, int off, int len, CompletableFuture<Void> done, boolean owned) {
        if (offloads(len) || laneBusy()) {
            byte[] kept = owned ? payload : Arrays.copyOfRange(payload, off, off + len);
            int from = owned ? off : 0;
            return offload(len, () -> enqueueNow(opcode, kept, from, len, done), done);
        }
        return enqueueNow(opcode, payload, off, len, done);
    }

    /** Whether sends must wait their turn in the lane (a compressed message before them is still there). */
    private boolean laneBusy() {
        return lane != null && lane.busy();
    }

    /** Whether a message of {@code len} bytes is compressed on a worker: large, to compress, sent from the I/O thread. */
    private boolean offloads(int len) {
        return compresses(len) && len >= CompressionLane.OFFLOAD_FROM_BYTES && outbox.onIoThread();
    }

    /**
     * Runs {@code send} in the lane; its {@code len} payload bytes count as held output until it has
     * run. False (and {@code done} failed) when the lane is closed: the close frame went first.
     */
    private boolean offload(int len, Runnable send, CompletableFuture<Void> done) {
        outbox.holdElsewhere(len);
        boolean taken = lane.add(() -> {
            try {
                send.run();
            } finally {
                outbox.holdElsewhere(-len);
                outbox.requestFlush();       // its flush may have come before this: the read pause is decided again
            }
        });
        if (!taken) {
            outbox.holdElsewhere(-len);
            refused(done);
        }
        return taken;
    }

    private static boolean refused(CompletableFuture<Void> done) {
        if (done != null) {
            done.completeExceptionally(new java.io.IOException("the connection is closing"));
        }
        return false;
    }

    /**
     * Whether messages accepted earlier are still being compressed: the close frame waits behind
     * them, so its close timeout has not started yet. The lane takes no new work after the close.
     */
    boolean compressing() {
        return lane != null && lane.busy();
    }

    /**
     * Queues the close frame after every message this connection accepted: behind the lane's jobs
     * when some wait (the close timeout starts once they are done), so a send that returned true is not
     * overtaken by it. Nothing is taken after it. False if a close frame was queued already.
     */
    boolean enqueueClose(byte[] frame) {
        return lane == null ? outbox.enqueueClose(frame) : lane.close(() -> outbox.enqueueClose(frame));
    }

    private boolean enqueueNow(int opcode, byte[] payload, int off, int len, CompletableFuture<Void> done) {
        if (!compresses(len)) {
            return outbox.enqueue(writer.message(opcode, payload, off, len), done);
        }
        synchronized (deflater) {
            if (deflater.ended()) {         // the connection closed while this waited in the lane
                return refused(done);
            }
            return outbox.enqueue(compressedFrames(opcode, ByteBuffer.wrap(payload, off, len)), done);
        }
    }

    /** A message's frames, compressed now (the caller holds the deflater's lock). */
    private byte[] compressedFrames(int opcode, ByteBuffer payload) {
        try {
            byte[] compressed = deflater.compress(payload);
            return writer.message(opcode, compressed, 0, compressed.length, true);
        } catch (Throwable e) {     // the context moved on without the peer: nothing more may be compressed with it
            deflater.end();
            throw e;
        }
    }

    /**
     * Queues a binary message without copying its payload when it goes out plain in one frame:
     * the header and the caller's buffer are written together by one gathering write. Otherwise
     * (compressed, or larger than a frame) the payload is copied once, as for a byte array. The
     * caller keeps the bytes unchanged until {@code done} completes, so a worker may read them too.
     */
    boolean enqueueBinary(ByteBuffer payload, CompletableFuture<Void> done) {
        if (compresses(payload.remaining())) {
            return enqueueCompressed(payload.slice(), done, null);
        }
        if (!goesOutAsItIs(payload.remaining())) {
            return enqueueCopy(payload, done);
        }
        ByteBuffer[] parts = {plainHeader(payload.remaining()), payload.slice().asReadOnlyBuffer()};
        // lane first: without one, no job is made for it (this is every plain connection's send)
        CompressionLane.Turn turn = lane == null ? CompressionLane.Turn.NOW : lane.addIfBusy(() -> outbox.enqueue(parts, done));
        return turn == CompressionLane.Turn.NOW ? outbox.enqueue(parts, done) : turn == CompressionLane.Turn.TAKEN || refused(done);
    }

    /**
     * Sends the buffer of the message being delivered as it is ({@code release} gives it back to its
     * pool): plain, it is queued and goes back once written; compressed, it goes back as soon as it
     * is compressed, since the queue then holds (and counts) the compressed bytes. Kept until those
     * were written, such buffers were counted nowhere while a client did not read.
     */
    boolean enqueueOwned(ByteBuffer payload, CompletableFuture<Void> release) {
        if (release == null || !compresses(payload.remaining())) {
            return enqueueBinary(payload, release);
        }
        return enqueueCompressed(payload.slice(), null, release);
    }

    /**
     * Compresses a binary payload where it is (the caller keeps it unchanged until {@code done}, or
     * until {@code freed} when given), on a worker when it is large and this is the I/O thread, as
     * for arrays.
     */
    private boolean enqueueCompressed(ByteBuffer payload, CompletableFuture<Void> done, CompletableFuture<Void> freed) {
        if (offloads(payload.remaining()) || laneBusy()) {
            boolean taken = offload(payload.remaining(), () -> compressNow(payload, done, freed), done);
            if (!taken && freed != null) {
                freed.complete(null);
            }
            return taken;
        }
        return compressNow(payload, done, freed);
    }

    /** Compresses and queues; {@code freed} (may be null) completes once the payload was read. */
    private boolean compressNow(ByteBuffer payload, CompletableFuture<Void> done, CompletableFuture<Void> freed) {
        synchronized (deflater) {
            if (deflater.ended()) {         // the connection closed while this waited in the lane
                if (freed != null) {
                    freed.complete(null);
                }
                return refused(done);
            }
            byte[] frames;
            try {
                frames = compressedFrames(OpCode.BINARY, payload);
            } finally {
                if (freed != null) {
                    freed.complete(null);
                }
            }
            return outbox.enqueue(frames, done);
        }
    }

    /**
     * Sends a binary message from a buffer the caller will reuse: a plain one-frame message is
     * written at once where the outbox can ({@link Outbox#sendNow}), copying only what the socket
     * did not take (a small one laid out with its header first, for one plain write); otherwise
     * the payload is copied and queued as for an array.
     */
    boolean sendBinaryNow(ByteBuffer payload) {
        int len = payload.remaining();
        if (!goesOutAsItIs(len) || laneBusy()) {
            return enqueueCopy(payload, null);
        }
        if (len <= LoopBuffers.SMALL_FRAME_PAYLOAD && outbox.writesThroughNow()) {
            ByteBuffer frame = outbox.smallFrameScratch();
            FrameWriter.putHeader(frame, true, OpCode.BINARY, len);
            frame.put(payload.duplicate()).flip();    // read through a duplicate: the caller's buffer may be shared by threads
            return outbox.sendNow(frame);
        }
        return outbox.sendNow(new ByteBuffer[] {plainHeader(len), payload.duplicate()});
    }

    /** Whether a binary payload of {@code len} bytes goes out uncompressed in one frame. */
    private boolean goesOutAsItIs(int len) {
        return !compresses(len) && len <= writer.maxFramePayload();
    }

    private boolean enqueueCopy(ByteBuffer payload, CompletableFuture<Void> done) {
        byte[] copy = new byte[payload.remaining()];
        payload.duplicate().get(copy);
        return enqueue(OpCode.BINARY, copy, 0, copy.length, done, true);
    }

    private static ByteBuffer plainHeader(int len) {
        byte[] header = new byte[FrameWriter.headerSize(len, false)];
        FrameWriter.writeHeader(header, 0, true, OpCode.BINARY, len, false, 0);
        return ByteBuffer.wrap(header);
    }

    /**
     * Queues a broadcast or a publish, sharing its encoded frames: compressed once for every
     * connection without context takeover, plain for the rest. A connection with its own context
     * gets the plain form (RSV1 is per message, RFC 7692): compressing for each of them on the
     * publisher's thread would make one publish cost a deflate per subscriber. Behind a large
     * message still being compressed in the lane, it waits its turn there.
     */
    boolean enqueue(Broadcast message) {
        byte[] frames = framesFor(message);     // now, not in the lane: the publisher may reuse its array once the call returns
        CompressionLane.Turn turn = lane == null ? CompressionLane.Turn.NOW : lane.addIfBusy(() -> outbox.enqueue(frames));
        return turn == CompressionLane.Turn.NOW ? outbox.enqueue(frames) : turn == CompressionLane.Turn.TAKEN;
    }

    private byte[] framesFor(Broadcast message) {
        return compresses(message.length()) && deflater.noContextTakeover() ? message.compressedFrames() : message.plainFrames();
    }

    /** Frees the compressor of a connection that has sent nothing compressed for a while (timer pass). */
    void releaseIfIdle(long nowNanos) {
        if (deflater != null) {
            deflater.releaseIfIdle(nowNanos, settings.idleReleaseMillis() * 1_000_000L);
        }
    }

    /** Frees the zlib stream, at close. */
    void release() {
        if (deflater != null) {
            deflater.end();
        }
    }
}
