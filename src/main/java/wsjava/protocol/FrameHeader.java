package wsjava.protocol;

/** The fixed part of one frame (RFC 6455 section 5.2), after the parser has validated it. */
public final class FrameHeader {

    private final boolean fin;
    private final int rsv;
    private final int opcode;
    private final boolean masked;
    private final int maskKey;
    private final int payloadLength;

    public FrameHeader(boolean fin, int rsv, int opcode, boolean masked, int maskKey, int payloadLength) {
        this.fin = fin;
        this.rsv = rsv;
        this.opcode = opcode;
        this.masked = masked;
        this.maskKey = maskKey;
        this.payloadLength = payloadLength;
    }

    public boolean fin() {
        return fin;
    }

    /** The three reserved bits as a number 0-7 (RSV1 is 4). */
    public int rsv() {
        return rsv;
    }

    public int opcode() {
        return opcode;
    }

    public boolean masked() {
        return masked;
    }

    /** The key in network order (see {@link wsjava.mask.Masker#key}); 0 when not masked. */
    public int maskKey() {
        return maskKey;
    }

    public int payloadLength() {
        return payloadLength;
    }

    @Override
    public String toString() {
        return OpCode.name(opcode) + (fin ? "" : " (not final)") + ", " + payloadLength + " bytes";
    }
}
