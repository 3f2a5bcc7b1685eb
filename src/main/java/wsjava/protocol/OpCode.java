package wsjava.protocol;

/** Frame opcodes (RFC 6455 section 5.2). 3-7 and 11-15 are reserved and rejected by the parser. */
public final class OpCode {

    public static final int CONTINUATION = 0x0;
    public static final int TEXT = 0x1;
    public static final int BINARY = 0x2;
    public static final int CLOSE = 0x8;
    public static final int PING = 0x9;
    public static final int PONG = 0xA;

    private OpCode() {
    }

    public static boolean isControl(int opcode) {
        return (opcode & 0x8) != 0;
    }

    public static boolean isKnown(int opcode) {
        return opcode <= BINARY || (opcode >= CLOSE && opcode <= PONG);
    }

    public static String name(int opcode) {
        switch (opcode) {
            case CONTINUATION: return "continuation";
            case TEXT: return "text";
            case BINARY: return "binary";
            case CLOSE: return "close";
            case PING: return "ping";
            case PONG: return "pong";
            default: return "reserved(" + opcode + ")";
        }
    }
}
