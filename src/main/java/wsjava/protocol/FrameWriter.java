package wsjava.protocol;

import java.nio.ByteBuffer;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Random;
import wsjava.mask.Masker;

/**
 * Builds frames: the minimal length encoding, masking in the client role (RFC 6455 section 5.3,
 * with a fresh random key per frame) and none in the server role, and fragmentation of messages
 * larger than {@code maxFramePayload}.
 */
public final class FrameWriter {

    /** The first byte's RSV1 bit: set on the first frame of a compressed message. */
    public static final int RSV1 = 0x40;

    private final Role role;
    private final int maxFramePayload;
    private final Random keys;

    /** @param maxFramePayload messages above this are split into continuation frames */
    public FrameWriter(Role role, int maxFramePayload) {
        this(role, maxFramePayload, role == Role.CLIENT ? new SecureRandom() : null);
    }

    /** With a chosen key source, so that tests and benchmarks can build repeatable client frames. */
    public FrameWriter(Role role, int maxFramePayload, Random keys) {
        if (maxFramePayload < 1) {
            throw new IllegalArgumentException("maxFramePayload must be positive");
        }
        this.role = role;
        this.maxFramePayload = maxFramePayload;
        this.keys = keys;
    }

    /** Messages longer than this go out as several frames. */
    public int maxFramePayload() {
        return maxFramePayload;
    }

    /** Bytes of header for a payload of {@code length}: 2, 4 or 10, plus 4 when masked. */
    public static int headerSize(long length, boolean masked) {
        int size = length <= 125 ? 2 : length <= 0xFFFF ? 4 : 10;
        return masked ? size + 4 : size;
    }

    /** Writes a header at {@code dst[off]} and returns its size. */
    /** An unmasked (server's) header at {@code out}'s position, which moves past it. */
    public static void putHeader(ByteBuffer out, boolean fin, int opcode, int length) {
        out.put((byte) ((fin ? FrameParser.B0_FIN : 0) | opcode));
        if (length <= 125) {
            out.put((byte) length);
        } else if (length <= 0xFFFF) {
            out.put((byte) 126).putShort((short) length);
        } else {
            out.put((byte) 127).putLong(length);
        }
    }

    public static int writeHeader(byte[] dst, int off, boolean fin, int opcode, long length, boolean masked, int key) {
        return writeHeader(dst, off, fin, false, opcode, length, masked, key);
    }

    /** {@link #writeHeader(byte[], int, boolean, int, long, boolean, int)} with RSV1, which marks a compressed message (RFC 7692). */
    public static int writeHeader(byte[] dst, int off, boolean fin, boolean rsv1, int opcode, long length, boolean masked, int key) {
        dst[off] = (byte) ((fin ? FrameParser.B0_FIN : 0) | (rsv1 ? RSV1 : 0) | opcode);
        int maskBit = masked ? FrameParser.B1_MASK : 0;
        int at = off + 2;
        if (length <= 125) {
            dst[off + 1] = (byte) (maskBit | length);
        } else if (length <= 0xFFFF) {
            dst[off + 1] = (byte) (maskBit | FrameParser.LENGTH_16);
            dst[at++] = (byte) (length >>> 8);
            dst[at++] = (byte) length;
        } else {
            dst[off + 1] = (byte) (maskBit | FrameParser.LENGTH_64);
            for (int shift = 56; shift >= 0; shift -= 8) {
                dst[at++] = (byte) (length >>> shift);
            }
        }
        if (masked) {
            dst[at++] = (byte) (key >>> 24);
            dst[at++] = (byte) (key >>> 16);
            dst[at++] = (byte) (key >>> 8);
            dst[at++] = (byte) key;
        }
        return at - off;
    }

    /** A text message, fragmented as needed. */
    public byte[] text(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return message(OpCode.TEXT, utf8, 0, utf8.length);
    }

    /** A binary message, fragmented as needed. */
    public byte[] binary(byte[] data) {
        return message(OpCode.BINARY, data, 0, data.length);
    }

    /**
     * A whole data message ({@link OpCode#TEXT} or {@link OpCode#BINARY}) as consecutive frames,
     * each at most {@code maxFramePayload} long. The input is never modified.
     */
    public byte[] message(int opcode, byte[] payload, int off, int len) {
        return message(opcode, payload, off, len, false);
    }

    /**
     * {@link #message(int, byte[], int, int)} for a payload that is already compressed when
     * {@code compressed}: RSV1 goes on the first frame only (RFC 7692 section 6).
     */
    public byte[] message(int opcode, byte[] payload, int off, int len, boolean compressed) {
        if (opcode != OpCode.TEXT && opcode != OpCode.BINARY) {
            throw new IllegalArgumentException("not a data opcode: " + opcode);
        }
        boolean masked = role == Role.CLIENT;
        int frames = Math.max(1, (len + maxFramePayload - 1) / maxFramePayload);
        long total = len;
        for (int f = 0; f < frames; f++) {
            total += headerSize(fragmentLength(len, f), masked);
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("message too large to encode: " + len + " bytes");
        }
        byte[] out = new byte[(int) total];
        int at = 0;
        for (int f = 0; f < frames; f++) {
            int chunk = fragmentLength(len, f);
            at += writeFrame(out, at, f == frames - 1, compressed && f == 0, f == 0 ? opcode : OpCode.CONTINUATION,
                    payload, off + f * maxFramePayload, chunk, masked);
        }
        return out;
    }

    private int fragmentLength(int len, int index) {
        return Math.min(maxFramePayload, len - index * maxFramePayload);
    }

    /** One frame with any opcode and FIN bit, for tests and callers that fragment by hand. */
    public byte[] frame(int opcode, boolean fin, byte[] payload, int off, int len) {
        boolean masked = role == Role.CLIENT;
        byte[] out = new byte[headerSize(len, masked) + len];
        writeFrame(out, 0, fin, false, opcode, payload, off, len, masked);
        return out;
    }

    /** A ping, pong or close frame: payload at most 125 bytes. */
    public byte[] control(int opcode, byte[] payload) {
        if (!OpCode.isControl(opcode)) {
            throw new IllegalArgumentException("not a control opcode: " + opcode);
        }
        if (payload.length > FrameParser.MAX_CONTROL_PAYLOAD) {
            throw new IllegalArgumentException("control frame payload over 125 bytes");
        }
        return frame(opcode, true, payload, 0, payload.length);
    }

    /** A close frame with a code and a reason (cut to fit 125 bytes at a character boundary). */
    public byte[] close(int code, String reason) {
        return control(OpCode.CLOSE, CloseFrames.payload(code, reason));
    }

    private int writeFrame(byte[] out, int at, boolean fin, boolean rsv1, int opcode, byte[] payload, int off, int len, boolean masked) {
        int key = masked ? nextKey() : 0;
        int header = writeHeader(out, at, fin, rsv1, opcode, len, masked, key);
        if (masked) {
            Masker.mask(payload, off, out, at + header, len, key, 0);
        } else {
            System.arraycopy(payload, off, out, at + header, len);
        }
        return header + len;
    }

    private int nextKey() {
        synchronized (keys) {
            return keys.nextInt();
        }
    }
}
