package wsjava.protocol;

/** One complete frame: its header and its unmasked payload. */
public final class Frame {

    private final FrameHeader header;
    private final byte[] payload;

    public Frame(FrameHeader header, byte[] payload) {
        this.header = header;
        this.payload = payload;
    }

    public FrameHeader header() {
        return header;
    }

    public int opcode() {
        return header.opcode();
    }

    public boolean fin() {
        return header.fin();
    }

    public byte[] payload() {
        return payload;
    }
}
