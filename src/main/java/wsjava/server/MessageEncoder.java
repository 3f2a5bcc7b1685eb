package wsjava.server;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.MessageDeflater;
import wsjava.protocol.OpCode;

/**
 * Turns a connection's outgoing data messages into frames and queues them: compressed when
 * permessage-deflate was agreed and the message reaches the threshold, plain otherwise. With
 * context takeover a compressed message refers back to earlier ones, so compressing and queueing
 * happen under one lock: the peer inflates them in the order they were compressed.
 */
final class MessageEncoder {

    private final FrameWriter writer;
    private final Outbox outbox;
    /** Null when permessage-deflate was not agreed. */
    private final MessageDeflater deflater;
    private final int thresholdBytes;
    private final long idleReleaseNanos;

    MessageEncoder(FrameWriter writer, Outbox outbox, MessageDeflater deflater, Compression settings) {
        this.writer = writer;
        this.outbox = outbox;
        this.deflater = deflater;
        this.thresholdBytes = settings.thresholdBytes();
        this.idleReleaseNanos = settings.idleReleaseMillis() * 1_000_000L;
    }

    boolean compresses(int length) {
        return deflater != null && length >= thresholdBytes;
    }

    /** Queues one message; false when the outbox refused it (see {@link Outbox#enqueue}). */
    boolean enqueue(int opcode, byte[] payload, int off, int len, CompletableFuture<Void> done) {
        if (!compresses(len)) {
            return outbox.enqueue(writer.message(opcode, payload, off, len), done);
        }
        synchronized (deflater) {
            byte[] compressed = deflater.compress(payload, off, len);
            return outbox.enqueue(writer.message(opcode, compressed, 0, compressed.length, true), done);
        }
    }

    /**
     * Queues a binary message without copying its payload when it goes out plain in one frame:
     * the header and the caller's buffer are written together by one gathering write. Otherwise
     * (compressed, or larger than a frame) the payload is copied once, as for a byte array.
     */
    boolean enqueueBinary(ByteBuffer payload, CompletableFuture<Void> done) {
        if (!goesOutAsItIs(payload.remaining())) {
            return enqueueCopy(payload, done);
        }
        return outbox.enqueue(new ByteBuffer[] {plainHeader(payload.remaining()), payload.slice().asReadOnlyBuffer()}, done);
    }

    /**
     * Sends a binary message from a buffer the caller will reuse: a plain one-frame message is
     * written at once where the outbox can ({@link Outbox#sendNow}), copying only what the socket
     * did not take; otherwise the payload is copied and queued as for an array.
     */
    boolean sendBinaryNow(ByteBuffer payload) {
        if (!goesOutAsItIs(payload.remaining())) {
            return enqueueCopy(payload, null);
        }
        return outbox.sendNow(new ByteBuffer[] {plainHeader(payload.remaining()), payload.duplicate()});
    }

    /** Whether a binary payload of {@code len} bytes goes out uncompressed in one frame. */
    private boolean goesOutAsItIs(int len) {
        return !compresses(len) && len <= writer.maxFramePayload();
    }

    private boolean enqueueCopy(ByteBuffer payload, CompletableFuture<Void> done) {
        byte[] copy = new byte[payload.remaining()];
        payload.duplicate().get(copy);
        return enqueue(OpCode.BINARY, copy, 0, copy.length, done);
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
     * publisher's thread would make one publish cost a deflate per subscriber.
     */
    boolean enqueue(Broadcast message) {
        if (compresses(message.length()) && deflater.noContextTakeover()) {
            return outbox.enqueue(message.compressedFrames());
        }
        return outbox.enqueue(message.plainFrames());
    }

    /** Frees the compressor of a connection that has sent nothing compressed for a while (timer pass). */
    void releaseIfIdle(long nowNanos) {
        if (deflater != null) {
            deflater.releaseIfIdle(nowNanos, idleReleaseNanos);
        }
    }

    /** Frees the zlib stream, at close. */
    void release() {
        if (deflater != null) {
            deflater.release();
        }
    }
}
