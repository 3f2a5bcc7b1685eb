package wsjava.bench.attack;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import wsjava.protocol.OpCode;

/** Reading the server's (unmasked) frames on an attacker's blocking socket, the little the attacks need. */
final class ServerFrames {

    private ServerFrames() {
    }

    /** The FIN bit's place in {@link #headerWithFin}: payload lengths stay far below it. */
    private static final long FIN = 1L << 55;

    /** Reads a frame header: returns {@code opcode << 56 | payload length}. */
    static long header(InputStream in) throws IOException {
        return headerWithFin(in) & ~FIN;
    }

    private static long headerWithFin(InputStream in) throws IOException {
        int b0 = in.read();
        int b1 = in.read();
        if (b0 < 0 || b1 < 0) {
            throw new EOFException("the server closed the connection");
        }
        long len = b1 & 0x7F;
        if (len == 126) {
            len = in.read() << 8 | in.read();
        } else if (len == 127) {
            len = 0;
            for (int i = 0; i < 8; i++) {
                len = len << 8 | in.read();
            }
        }
        return (long) (b0 & 0x0F) << 56 | ((b0 & 0x80) != 0 ? FIN : 0) | len;
    }

    /**
     * The next message's opcode ({@link OpCode#TEXT} or {@link OpCode#BINARY}, its frames read to the
     * last, payloads skipped), or {@link OpCode#CLOSE} for the close frame; pings and pongs are
     * skipped. Throws {@link EOFException} when the connection ends first.
     */
    static int nextMessage(InputStream in) throws IOException {
        int first = -1;
        while (true) {
            long header = headerWithFin(in);
            in.skipNBytes(header & (FIN - 1));
            int opcode = (int) (header >>> 56);
            if (opcode == OpCode.CLOSE) {
                return OpCode.CLOSE;
            }
            if (opcode == OpCode.PING || opcode == OpCode.PONG) {
                continue;
            }
            if (first < 0) {
                first = opcode;
            }
            if ((header & FIN) != 0) {
                return first;
            }
        }
    }

    /** Reads one frame, dropping its payload; returns the payload's length. */
    static long skipFrame(InputStream in) throws IOException {
        long len = header(in) & 0x00FF_FFFF_FFFF_FFFFL;
        in.skipNBytes(len);
        return len;
    }

    /** The code of the server's close frame, skipping any other frames; -1 when the connection ends without one. */
    static int closeCode(InputStream in) {
        try {
            while (true) {
                long header = header(in);
                int len = (int) (header & 0xFFFF_FFFFL);
                byte[] payload = in.readNBytes(len);
                if ((header >>> 56) == OpCode.CLOSE) {
                    return payload.length >= 2 ? (payload[0] & 0xFF) << 8 | (payload[1] & 0xFF) : 1005;
                }
            }
        } catch (IOException e) {
            return -1;
        }
    }
}
