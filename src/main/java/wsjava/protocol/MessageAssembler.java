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
 * <p>A binary message of one frame whose payload came in one piece is not copied at all: the
 * handler gets a read-only view of the piece ({@link MessageHandler#onBinary(ByteBuffer)}). Given
 * {@link MessageBuffers}, a binary message that grows past {@code offHeapFrom} bytes moves to its
 * buffers ({@link MessageHandler#onAssembledBinary}); smaller ones stay in an array, so a pool's
 * sizes never multiply the memory of a small message.
 */
public final class MessageAssembler implements FrameListener {

    /** The most a connection keeps between messages; above it the buffer is released. */
    static final int IDLE_BUFFER_LIMIT = 8 * 1024;

    private final MessageHandler handler;
    private final int maxMessageSize;
    private final Utf8Validator utf8 = new Utf8Validator();

    private FrameHeader frame;
    /** Opcode of the data message in progress, or -1 between messages. */
    private int messageOpcode = -1;
    private byte[] message = new byte[0];
    private int messageSize;
    /** What the headers so far say the message will hold: a cap for growth, never a reason to allocate. */
    private long claimedSize;

    private final byte[] control = new byte[FrameParser.MAX_CONTROL_PAYLOAD];
    private int controlSize;

    /** Null unless permessage-deflate was agreed. */
    private final MessageInflater inflater;
    private boolean compressed;
    private final MessageInflater.Sink inflated = this::append;

    /** The current message when it arrived whole in one piece: a view handed over at the frame's end. */
    private ByteBuffer whole;

    /** Null unless large binary messages are assembled off the heap; then {@code offHeap} holds the current one. */
    private final MessageBuffers buffers;
    private final int offHeapFrom;
    private ByteBuffer offHeap;

    public MessageAssembler(MessageHandler handler, int maxMessageSize) {
        this(handler, maxMessageSize, null);
    }

    /** @param inflater the connection's inflater when permessage-deflate was agreed, else null */
    public MessageAssembler(MessageHandler handler, int maxMessageSize, MessageInflater inflater) {
        this(handler, maxMessageSize, inflater, null, 0);
    }

    /**
     * @param buffers where binary messages larger than {@code offHeapFrom} bytes are assembled, or
     *                null for arrays only
     */
    public MessageAssembler(MessageHandler handler, int maxMessageSize, MessageInflater inflater, MessageBuffers buffers, int offHeapFrom) {
        this.handler = handler;
        this.maxMessageSize = maxMessageSize;
        this.inflater = inflater;
        this.buffers = buffers;
        this.offHeapFrom = offHeapFrom;
    }

    @Override
    public void onFrameStart(FrameHeader header) {
        frame = header;
        int opcode = header.opcode();
        boolean rsv1 = (header.rsv() & 4) != 0;
        if (rsv1 && (inflater == null || OpCode.isControl(opcode) || opcode == OpCode.CONTINUATION)) {
            throw new ProtocolException(inflater == null ? "RSV1 set but permessage-deflate was not agreed"
                    : "RSV1 on a " + OpCode.name(opcode) + " frame: only a message's first frame may carry it");
        }
        if (OpCode.isControl(opcode)) {
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
     */
    private void reserve(int size) {
        if (size <= message.length) {
            return;
        }
        long twiceArrived = Math.max(1024, 2L * size);
        message = Arrays.copyOf(message, (int) Math.min(twiceArrived, Math.max(size, claimedSize)));
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
        if (OpCode.isControl(frame.opcode())) {
            piece.get(control, controlSize, len);
            controlSize += len;
        } else if (compressed) {
            inflater.inflate(piece, inflated);
        } else if (messageOpcode == OpCode.BINARY && messageSize == 0 && frame.fin() && len == frame.payloadLength()) {
            whole = piece.slice().asReadOnlyBuffer();
        } else if (messageOpcode == OpCode.BINARY && buffers != null && (offHeap != null || messageSize + len > offHeapFrom)) {
            reserveOffHeap(messageSize + len);
            offHeap.put(piece);
            messageSize += len;
        } else {
            append(piece);
        }
    }

    /** Bytes into the message array; text is validated as it arrives. */
    private void append(ByteBuffer piece) {
        int len = piece.remaining();
        checkLimit(len);
        reserve(messageSize + len);
        piece.get(message, messageSize, len);
        if (messageOpcode == OpCode.TEXT) {
            utf8.feed(message, messageSize, len);
        }
        messageSize += len;
    }

    /** Inflated bytes, from the inflater's step buffer. */
    private void append(byte[] buf, int off, int len) {
        append(ByteBuffer.wrap(buf, off, len));
    }

    /** As {@link #reserve}, in a buffer from {@link MessageBuffers}: room for twice what arrived, within the claim. */
    private void reserveOffHeap(int size) {
        if (offHeap != null && size <= offHeap.capacity()) {
            return;
        }
        long twiceArrived = Math.max(1024, 2L * size);
        ByteBuffer larger = buffers.take((int) Math.min(twiceArrived, Math.max(size, claimedSize)));
        if (offHeap != null) {
            offHeap.flip();
            larger.put(offHeap);
            buffers.give(offHeap);
        } else {
            larger.put(message, 0, messageSize);     // the message outgrew its array: move it, and hold one buffer, not two
            message = new byte[0];
        }
        offHeap = larger;
    }

    /** The connection ended: a buffer still held goes back. */
    public void release() {
        if (offHeap != null) {
            ByteBuffer held = offHeap;
            offHeap = null;
            buffers.give(held);
        }
    }

    private void checkLimit(int len) {
        if ((long) messageSize + len > maxMessageSize) {     // reached only by inflated bytes: headers are checked first
            throw new MessageTooLargeException("inflated message exceeds the limit of " + maxMessageSize + " bytes");
        }
    }

    @Override
    public void onFrameEnd() {
        int opcode = frame.opcode();
        if (OpCode.isControl(opcode)) {
            deliverControl(opcode);
            return;
        }
        if (!frame.fin()) {
            return;
        }
        if (compressed) {
            inflater.finish(inflated);
            compressed = false;
        }
        int type = messageOpcode;
        messageOpcode = -1;
        if (whole != null) {
            ByteBuffer view = whole;
            whole = null;
            handler.onBinary(view);
        } else if (offHeap != null) {
            deliverOffHeap();
        } else if (type == OpCode.TEXT) {
            utf8.finish();
            handler.onText(new String(message, 0, messageSize, StandardCharsets.UTF_8));
        } else if (message.length == messageSize) {
            byte[] exact = message;    // sized exactly: hand it over instead of copying
            message = new byte[0];
            handler.onBinary(exact);
        } else {
            handler.onBinary(Arrays.copyOf(message, messageSize));
        }
        if (message.length > IDLE_BUFFER_LIMIT) {
            message = new byte[0];     // don't pin a big buffer to an idle connection
        }
    }

    private void deliverOffHeap() {
        ByteBuffer assembled = offHeap;
        offHeap = null;
        assembled.flip();
        try {
            handler.onAssembledBinary(assembled.asReadOnlyBuffer());
        } finally {
            buffers.give(assembled);
        }
    }

    private void deliverControl(int opcode) {
        byte[] payload = Arrays.copyOf(control, controlSize);
        if (opcode == OpCode.PING) {
            handler.onPing(payload);
        } else if (opcode == OpCode.PONG) {
            handler.onPong(payload);
        } else {
            CloseFrames.CloseReason reason = CloseFrames.parse(payload, payload.length);
            handler.onClose(reason.code(), reason.reason());
        }
    }
}
