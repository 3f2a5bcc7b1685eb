package wsjava.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns frames into messages: joins fragments, enforces the continuation rules, lets control
 * frames through between fragments, validates text as UTF-8 while it arrives (so bad text fails at
 * the chunk that carries it), and enforces the message size limit as soon as a header reveals it.
 * Memory follows the bytes that arrived, never the length a header claims: the buffer grows (at
 * most doubling) as payload comes in, so a peer that sends only a 16 MiB frame header costs nothing.
 * With permessage-deflate agreed, a message whose first frame has RSV1 is inflated as it arrives and
 * the limit applies to the inflated bytes as they are produced.
 *
 * <p>Before its buffer grows, before each inflation step, after each frame and before each new
 * message it asks its {@link InboundLimits}; on a no it stops where it is, leaving the input it did
 * not take in the caller's buffer ({@link #acceptsInput()} is then false, and the parser stops
 * too), and goes on after {@link #resume()}. A message that completes in the piece at hand grows
 * without asking for memory (it is delivered at once; compressed, up to {@link #FREE_INFLATED_BYTES}),
 * but asks {@link InboundLimits#mayComplete}, which only a full consumer refuses.
 *
 * <p>A binary message of one frame whose payload came in one piece is not copied at all: the
 * handler gets a read-only view of the piece ({@link MessageHandler#onBinary(ByteBuffer)}). Given
 * {@link MessageBuffers}, a binary message that grows past {@code offHeapFrom} bytes moves to its
 * buffers ({@link MessageHandler#onAssembledBinary}); smaller ones stay in an array, so a pool's
 * sizes never multiply the memory of a small message.
 */
public final class MessageAssembler implements FrameListener {

    /** The most a connection keeps between messages; above it the buffer is released. */
    static final int IDLE_BUFFER_LIMIT = 8 * 1024;
    /** When a message's final size is not known (compressed, or fragmented), its buffer grows by at most this much at a time. */
    static final int UNKNOWN_SIZE_GROWTH = 1024 * 1024;
    /** A compressed message completing in the piece at hand may inflate this much without asking. */
    public static final int FREE_INFLATED_BYTES = 64 * 1024;

    private final MessageHandler handler;
    private final int maxMessageSize;
    /** Made at the first text message: a connection that never gets one keeps none. */
    private Utf8Validator utf8;
    private final InboundLimits limits;

    private FrameHeader frame;
    /** Payload bytes of the current frame not yet taken. */
    private long frameLeft;
    /** Opcode of the data message in progress, or -1 between messages. */
    private int messageOpcode = -1;
    /** Shared by every idle assembler: a zero-length array holds nothing, so it may be. */
    private static final byte[] NO_BYTES = new byte[0];

    private byte[] message = NO_BYTES;
    private int messageSize;
    /** What the headers so far say the message will hold: a cap for growth, never a reason to allocate. */
    private long claimedSize;
    /** A limit said no: input is not taken until {@link #resume()}. */
    private boolean stalled;
    /** The piece at hand completes the message: its growth needs no permission. */
    private boolean completing;

    /** A control frame's payload, sized at its header and handed over whole: no buffer stays with an idle connection. */
    private byte[] control = NO_BYTES;
    private int controlSize;

    /** Null unless permessage-deflate was agreed. */
    private final MessageInflater inflater;
    private boolean compressed;
    /** Where inflated bytes go; null without an inflater, so a plain connection keeps no such object. */
    private final MessageInflater.Sink inflated;

    /** The current message when it arrived whole in one piece: a view handed over at the frame's end. */
    private ByteBuffer whole;
    /** Where binary messages past {@code offHeapFrom} bytes go (null: arrays only); one in progress there is {@code offHeap}, made and dropped with it. */
    private final MessageBuffers buffers;
    private final int offHeapFrom;
    private OffHeapMessage offHeap;

    public MessageAssembler(MessageHandler handler, int maxMessageSize) {
        this(handler, maxMessageSize, null);
    }

    /** @param inflater the connection's inflater when permessage-deflate was agreed, else null */
    public MessageAssembler(MessageHandler handler, int maxMessageSize, MessageInflater inflater) {
        this(handler, maxMessageSize, inflater, null, 0, InboundLimits.NONE);
    }

    /** @param buffers where binary messages larger than {@code offHeapFrom} bytes are assembled, or null for arrays only */
    public MessageAssembler(MessageHandler handler, int maxMessageSize, MessageInflater inflater, MessageBuffers buffers, int offHeapFrom) {
        this(handler, maxMessageSize, inflater, buffers, offHeapFrom, InboundLimits.NONE);
    }

    /** @param limits what is asked before growing, inflating and starting messages */
    public MessageAssembler(MessageHandler handler, int maxMessageSize, MessageInflater inflater, MessageBuffers buffers, int offHeapFrom,
                            InboundLimits limits) {
        this.handler = handler;
        this.maxMessageSize = maxMessageSize;
        this.inflater = inflater;
        this.buffers = buffers;
        this.offHeapFrom = offHeapFrom;
        this.inflated = inflater == null ? null : new InflatedSink();
        this.limits = limits;
    }

    @Override
    public boolean acceptsInput() {
        return !stalled;
    }

    /** After a stop: asks again, before any input is fed; false while it still may not go on. */
    public boolean resume() {
        stalled = messageOpcode < 0 && !limits.mayStartMessage();
        return !stalled;
    }

    @Override
    public void onFrameStart(FrameHeader header) {
        frame = header;
        frameLeft = header.payloadLength();
        int opcode = header.opcode();
        boolean rsv1 = (header.rsv() & 4) != 0;
        if (rsv1 && (inflater == null || OpCode.isControl(opcode) || opcode == OpCode.CONTINUATION)) {
            throw new ProtocolException(inflater == null ? "RSV1 set but permessage-deflate was not agreed"
                    : "RSV1 on a " + OpCode.name(opcode) + " frame: only a message's first frame may carry it");
        }
        if (OpCode.isControl(opcode)) {
            control = frameLeft == 0 ? NO_BYTES : new byte[(int) frameLeft];     // the parser refused above 125
            controlSize = 0;
            return;
        }
        if (opcode == OpCode.CONTINUATION) {
            if (messageOpcode < 0) {
                throw new ProtocolException("continuation frame with no message to continue");
            }
        } else if (messageOpcode >= 0) {
            throw new ProtocolException("new " + OpCode.name(opcode) + " message before the fragmented message finished");
        } else {
            messageOpcode = opcode;
            utf8 = opcode == OpCode.TEXT && utf8 == null ? new Utf8Validator() : utf8;
            messageSize = 0;
            compressed = rsv1;
        }
        if (compressed) {
            claimedSize = maxMessageSize;     // the inflated size is known only as it is produced
            return;
        }
        long size = (long) messageSize + header.payloadLength();
        if (size > maxMessageSize) {
            throw new MessageTooLargeException("message of at least " + size + " bytes exceeds the limit of " + maxMessageSize);
        }
        claimedSize = header.fin() ? size : maxMessageSize;
    }

    /**
     * Makes room for {@code size} bytes that have arrived: room for twice as many, never past what
     * the headers claim, so a big message is copied into a larger buffer at most a few times and,
     * when it ends in this frame, fills its buffer exactly and is handed over without a copy.
     * False when the limits refuse the growth (the assembler then stops).
     */
    private boolean reserve(int size, boolean free) {
        if (size <= message.length) {
            return true;
        }
        int capacity = grownCapacity(size);
        long growth = capacity - message.length;
        if (free ? !limits.mayComplete(growth) : !limits.mayGrow(growth)) {   // the copy's moment of both is one buffer per I/O thread
            stalled = true;
            return false;
        }
        message = Arrays.copyOf(message, capacity);
        return true;
    }

    /**
     * Room for {@code size} bytes: twice as many, never past what the headers claim; when they do
     * not say (compressed or fragmented), at most {@link #UNKNOWN_SIZE_GROWTH} more, so what is held
     * stays close to what arrived.
     */
    private int grownCapacity(int size) {
        long grown = claimedSize >= maxMessageSize ? Math.min(2L * size, (long) size + UNKNOWN_SIZE_GROWTH) : 2L * size;
        return (int) Math.min(Math.max(1024, grown), Math.max(size, claimedSize));
    }

    /** The bytes of buffer this assembler holds (what a server counts against its inbound budget). */
    public int bufferCapacity() {
        return message.length + (offHeap == null ? 0 : offHeap.capacity());
    }

    /** Whether a data message has begun and not yet ended. */
    public boolean messageInProgress() {
        return messageOpcode >= 0;
    }

    /** A piece in an array (the parser's copy of read-only input): the same as any other piece. */
    @Override
    public void onFramePayload(byte[] buf, int off, int len) {
        onFramePayload(ByteBuffer.wrap(buf, off, len));
    }

    @Override
    public void onFramePayload(ByteBuffer piece) {
        int len = piece.remaining();
        int before = piece.position();
        completing = len == frameLeft && frame.fin();
        if (OpCode.isControl(frame.opcode())) {
            piece.get(control, controlSize, len);
            controlSize += len;
        } else if (compressed) {
            inflater.inflate(piece, inflated);
            stalled |= piece.hasRemaining();
        } else if (messageOpcode == OpCode.BINARY && messageSize == 0 && frame.fin() && len == frame.payloadLength()) {
            if (limits.mayComplete(len)) {
                whole = piece.slice().asReadOnlyBuffer();
                piece.position(piece.limit());
            } else {
                stalled = true;       // the piece waits, untaken
            }
        } else if (messageOpcode == OpCode.BINARY && takesOffHeap((long) messageSize + len)) {
            if (reserveOffHeap(messageSize + len) && !offHeap.holds()) {
                append(piece);            // it moved to an array: direct memory was short
            } else if (offHeap.holds() && !stalled) {
                offHeap.put(piece);
                messageSize += len;
            }
        } else if (reserve(messageSize + len, completing)) {
            append(piece);
        }
        frameLeft -= piece.position() - before;
    }

    /** Bytes into the message array, which has room for them; text is validated as it arrives. */
    private void append(ByteBuffer piece) {
        int len = piece.remaining();
        if ((long) messageSize + len > maxMessageSize) {     // reached only by inflated bytes: headers are checked first
            if (messageOpcode == OpCode.TEXT) {
                // Bad UTF-8 before the limit came first, wherever inflating happened to cut its output.
                utf8.feed(piece.duplicate(), maxMessageSize - messageSize);
            }
            throw new MessageTooLargeException("inflated message exceeds the limit of " + maxMessageSize + " bytes");
        }
        reserve(messageSize + len, true);
        piece.get(message, messageSize, len);
        if (messageOpcode == OpCode.TEXT) {
            utf8.feed(message, messageSize, len);
        }
        messageSize += len;
    }

    /** Whether the binary message in progress, {@code size} bytes so far, is (or now goes) off the heap; see {@link OffHeapMessage#takes}. */
    private boolean takesOffHeap(long size) {
        offHeap = offHeap != null ? offHeap : OffHeapMessage.startIfLarge(buffers, offHeapFrom, size);
        return offHeap != null && offHeap.takes(size);
    }

    /** As {@link #reserve}, in a buffer from {@link MessageBuffers}; when none can be had, the message goes on in an array. */
    private boolean reserveOffHeap(int size) {
        if (offHeap.fits(size)) {
            return true;
        }
        int capacity = grownCapacity(size);
        long growth = offHeap.sizeOf(capacity) - bufferCapacity();     // what the pool's buffer will hold
        if (completing ? !limits.mayComplete(growth) : !limits.mayGrow(growth)) {
            stalled = true;       // refused: the piece waits
            return false;
        }
        boolean moved = offHeap.grow(capacity, message, messageSize);
        if (moved && message.length > 0) {
            message = NO_BYTES;     // the message outgrew its array: it holds one buffer, not two
        } else if (!moved) {
            message = offHeap.holds() ? offHeap.toArray(capacity, messageSize) : Arrays.copyOf(message, capacity);
        }
        return true;
    }

    /**
     * The message in progress is given up (its connection is closing because of it): its memory goes
     * back now, not when the close handshake ends, which a peer may drag out to the close timeout.
     */
    public void abandonMessage() {
        messageOpcode = -1;
        messageSize = 0;
        claimedSize = 0;
        message = NO_BYTES;
        release();
    }

    /** The connection ended: a buffer still held goes back. */
    public void release() {
        if (offHeap != null) {
            offHeap.release();
            offHeap = null;
        }
    }

    @Override
    public void onFrameEnd() {
        int opcode = frame.opcode();
        if (OpCode.isControl(opcode)) {
            deliverControl(opcode);
        } else if (frame.fin()) {
            deliverMessage();
        }
        stalled |= !limits.frameDone() || (messageOpcode < 0 && !limits.mayStartMessage());
    }

    private void deliverMessage() {
        if (compressed) {
            inflater.finish(inflated);
            compressed = false;
        }
        int type = messageOpcode;
        messageOpcode = -1;
        OffHeapMessage assembled = offHeap;
        offHeap = null;      // the next message starts without one (and may go off the heap again)
        if (whole != null) {
            ByteBuffer view = whole;
            whole = null;
            handler.onBinary(view);
        } else if (assembled != null && assembled.holds()) {
            assembled.deliver(handler);
        } else if (type == OpCode.TEXT) {
            utf8.finish();
            handler.onText(new String(message, 0, messageSize, StandardCharsets.UTF_8));
        } else if (message.length == messageSize) {
            byte[] exact = message;    // sized exactly: hand it over instead of copying
            message = NO_BYTES;
            handler.onBinary(exact);
        } else if (message.length > IDLE_BUFFER_LIMIT) {
            ByteBuffer whole = ByteBuffer.wrap(message, 0, messageSize).asReadOnlyBuffer();
            message = NO_BYTES;     // a large array is let go after the call anyway: lend it instead of copying it
            handler.onAssembledBinary(whole);
        } else {
            handler.onBinary(Arrays.copyOf(message, messageSize));
        }
        if (message.length > IDLE_BUFFER_LIMIT || (message.length > 0 && !limits.mayKeep(message.length))) {
            message = NO_BYTES;     // don't pin a big buffer to an idle connection, nor a small one when room is short
        }
    }

    private void deliverControl(int opcode) {
        byte[] payload = control;
        control = NO_BYTES;
        if (opcode == OpCode.PING) {
            handler.onPing(payload);
        } else if (opcode == OpCode.PONG) {
            handler.onPong(payload);
        } else {
            CloseFrames.CloseReason reason = CloseFrames.parse(payload, payload.length);
            handler.onClose(reason.code(), reason.reason());
        }
    }

    /** Takes the inflater's output into the message, asking the limits first. */
    private final class InflatedSink implements MessageInflater.Sink {
        @Override
        public boolean prepare(int bytes) {
            long wanted = Math.min((long) messageSize + bytes, maxMessageSize);
            boolean free = completing && wanted <= FREE_INFLATED_BYTES;
            if (free) {
                limits.mayInflate(bytes);     // free of memory, not of work: counted, the pass ends at the frame's end (frameDone)
            } else if (!limits.mayInflate(bytes)) {
                stalled = true;
                return false;
            }
            return reserve((int) wanted, free);
        }

        @Override
        public int room() {
            return maxMessageSize - messageSize;
        }

        @Override
        public void accept(byte[] buf, int off, int len) {
            append(ByteBuffer.wrap(buf, off, len));
        }
    }
}
