package wsjava.protocol;

import java.nio.ByteBuffer;
import wsjava.mask.Masker;

/**
 * Incremental frame parser: feed it bytes in any chunking, one byte at a time included, and it
 * reports frames to a {@link FrameListener} as their parts become available. Payloads are unmasked
 * in place in the caller's buffer as they arrive (a read-only buffer's into a scratch array), and
 * handed on as that buffer, so a direct read buffer's bytes reach the listener without a copy.
 *
 * <pre>
 *  0               1               2               3
 *  0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
 * +-+-+-+-+-------+-+-------------+-------------------------------+
 * |F|R|R|R| opcode|M| Payload len |    Extended payload length    |
 * |I|S|S|S|  (4)  |A|     (7)     |             (16/64)           |
 * |N|V|V|V|       |S|             |   (if payload len==126/127)   |
 * | |1|2|3|       |K|             |                               |
 * +-+-+-+-+-------+-+-------------+ - - - - - - - - - - - - - - - +
 * </pre>
 *
 * Violations throw a {@link CloseException} subclass carrying the close code; after one, the
 * parser refuses further input. After a close frame it ignores everything (RFC 6455 section 5.5.1).
 */
public final class FrameParser {

    static final int B0_FIN = 0x80;
    static final int B0_RSV = 0x70;
    static final int B0_OPCODE = 0x0F;
    static final int B1_MASK = 0x80;
    static final int B1_LENGTH = 0x7F;
    static final int LENGTH_16 = 126;
    static final int LENGTH_64 = 127;
    static final int MAX_CONTROL_PAYLOAD = 125;

    private enum State { HEADER, PAYLOAD, AFTER_CLOSE, FAILED }

    private final Role role;
    private final int maxFramePayload;
    /** RSV bits an agreed extension uses (4, RSV1, with permessage-deflate); others fail the connection. */
    private final int allowedRsv;

    private State state = State.HEADER;
    private final byte[] header = new byte[14];
    private int headerHave;
    private int headerNeed = 2;

    private FrameHeader current;
    private int payloadLeft;
    private int maskPhase;
    private byte[] scratch;

    public FrameParser(Role role, int maxFramePayload) {
        this(role, maxFramePayload, 0);
    }

    public FrameParser(Role role, int maxFramePayload, int allowedRsv) {
        this.role = role;
        this.maxFramePayload = maxFramePayload;
        this.allowedRsv = allowedRsv;
    }

    /** Whether a close frame has been parsed; the parser ignores all input after it. */
    public boolean closeReceived() {
        return state == State.AFTER_CLOSE;
    }

    /** Whether the parser sits between frames (no partial header or payload buffered). */
    public boolean atFrameBoundary() {
        return state == State.HEADER && headerHave == 0;
    }

    /**
     * Consumes {@code in}, reporting to {@code listener}: all of it, unless the listener stops
     * taking input ({@link FrameListener#acceptsInput()}); then {@code in}'s position is at the first
     * byte not taken, which is as it arrived (still masked), so the same bytes may be parsed again.
     */
    public void parse(ByteBuffer in, FrameListener listener) {
        try {
            while (in.hasRemaining() && listener.acceptsInput()) {
                switch (state) {
                    case HEADER:
                        readHeader(in, listener);
                        break;
                    case PAYLOAD:
                        readPayload(in, listener);
                        break;
                    case AFTER_CLOSE:
                        in.position(in.limit());
                        return;
                    default:
                        throw new IllegalStateException("parser already failed the connection");
                }
            }
        } catch (CloseException e) {
            state = State.FAILED;
            throw e;
        }
    }

    private void readHeader(ByteBuffer in, FrameListener listener) {
        while (headerHave < headerNeed && in.hasRemaining()) {
            header[headerHave++] = in.get();
            if (headerHave == 2) {
                headerNeed = checkFirstTwoBytes();
            }
        }
        if (headerHave < headerNeed) {
            return;
        }
        int b0 = header[0] & 0xFF;
        int b1 = header[1] & 0xFF;
        boolean masked = (b1 & B1_MASK) != 0;
        long length = b1 & B1_LENGTH;
        int at = 2;
        if (length == LENGTH_16) {
            length = (header[2] & 0xFF) << 8 | (header[3] & 0xFF);
            at = 4;
        } else if (length == LENGTH_64) {
            length = 0;
            for (int i = 2; i < 10; i++) {
                length = length << 8 | (header[i] & 0xFF);
            }
            if (length < 0) {
                throw new ProtocolException("64-bit payload length has its most significant bit set");
            }
            at = 10;
        }
        if (length > maxFramePayload) {
            throw new MessageTooLargeException("frame payload of " + length + " bytes exceeds the limit of " + maxFramePayload);
        }
        int key = masked ? Masker.key(header[at], header[at + 1], header[at + 2], header[at + 3]) : 0;
        current = new FrameHeader((b0 & B0_FIN) != 0, (b0 & B0_RSV) >> 4, b0 & B0_OPCODE, masked, key, (int) length);
        headerHave = 0;
        headerNeed = 2;
        payloadLeft = (int) length;
        maskPhase = 0;
        listener.onFrameStart(current);
        if (payloadLeft == 0) {
            endFrame(listener);
        } else {
            state = State.PAYLOAD;
        }
    }

    /** Validates what the first two bytes say, before waiting for the rest; returns the header size. */
    private int checkFirstTwoBytes() {
        int b0 = header[0] & 0xFF;
        int b1 = header[1] & 0xFF;
        int opcode = b0 & B0_OPCODE;
        int rsv = (b0 & B0_RSV) >> 4;
        if ((rsv & ~allowedRsv) != 0) {
            throw new ProtocolException("reserved bits set (RSV=" + rsv + ") that no agreed extension uses");
        }
        if (!OpCode.isKnown(opcode)) {
            throw new ProtocolException("reserved opcode " + opcode);
        }
        int length7 = b1 & B1_LENGTH;
        if (OpCode.isControl(opcode)) {
            if ((b0 & B0_FIN) == 0) {
                throw new ProtocolException("control frames must not be fragmented");
            }
            if (length7 > MAX_CONTROL_PAYLOAD) {
                throw new ProtocolException("control frame payload over 125 bytes");
            }
        }
        boolean masked = (b1 & B1_MASK) != 0;
        if (masked != role.expectsMaskedFrames()) {
            throw new ProtocolException(masked ? "server frames must not be masked" : "client frames must be masked");
        }
        int extended = length7 == LENGTH_16 ? 2 : length7 == LENGTH_64 ? 8 : 0;
        return 2 + extended + (masked ? 4 : 0);
    }

    private void readPayload(ByteBuffer in, FrameListener listener) {
        int n = Math.min(payloadLeft, in.remaining());
        int taken = in.isReadOnly() ? readOnlyPayload(in, n, listener) : writablePayload(in, n, listener);
        payloadLeft -= taken;
        maskPhase = (maskPhase + taken) & 3;
        if (payloadLeft == 0) {
            endFrame(listener);
        }
    }

    /** Unmasks the piece in place, where it was read; bytes the listener leaves are masked again. Returns the bytes taken. */
    private int writablePayload(ByteBuffer in, int n, FrameListener listener) {
        int start = in.position();
        int limit = in.limit();
        if (current.masked()) {
            Masker.mask(in, start, n, current.maskKey(), maskPhase);
        }
        in.limit(start + n);
        int taken = n;
        try {
            listener.onFramePayload(in);
            if (!listener.acceptsInput()) {
                taken = in.position() - start;
            }
        } finally {
            in.limit(limit);
            in.position(start + taken);
        }
        if (taken < n && current.masked()) {
            Masker.mask(in, start + taken, n - taken, current.maskKey(), (maskPhase + taken) & 3);   // back as it came
        }
        return taken;
    }

    /** Input we may not unmask in place: its payload is unmasked into a scratch array first. Returns the bytes taken. */
    private int readOnlyPayload(ByteBuffer in, int n, FrameListener listener) {
        if (scratch == null || scratch.length < n) {
            scratch = new byte[Math.max(n, 8192)];
        }
        int start = in.position();
        in.get(scratch, 0, n);
        if (current.masked()) {
            Masker.mask(scratch, 0, n, current.maskKey(), maskPhase);
        }
        ByteBuffer piece = ByteBuffer.wrap(scratch, 0, n);
        listener.onFramePayload(piece);
        int taken = listener.acceptsInput() ? n : piece.position();
        in.position(start + taken);
        return taken;
    }

    private void endFrame(FrameListener listener) {
        boolean close = current.opcode() == OpCode.CLOSE;
        state = close ? State.AFTER_CLOSE : State.HEADER;
        listener.onFrameEnd();
    }
}
