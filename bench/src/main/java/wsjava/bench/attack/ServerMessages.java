package wsjava.bench.attack;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import wsjava.protocol.OpCode;

/** Reading whole server messages on a blocking socket, payloads skipped: what the compressed-echo attacks count. */
final class ServerMessages {

    private ServerMessages() {
    }

    /**
     * The next message's opcode ({@link OpCode#TEXT} or {@link OpCode#BINARY}, its frames read to the
     * last), or {@link OpCode#CLOSE} for the close frame; pings and pongs are skipped. Throws
     * {@link EOFException} when the connection ends first.
     */
    static int next(InputStream in) throws IOException {
        int first = -1;
        while (true) {
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
            in.skipNBytes(len);
            int opcode = b0 & 0x0F;
            if (opcode == OpCode.CLOSE) {
                return OpCode.CLOSE;
            }
            if (opcode == OpCode.PING || opcode == OpCode.PONG) {
                continue;
            }
            if (first < 0) {
                first = opcode;
            }
            if ((b0 & 0x80) != 0) {
                return first;
            }
        }
    }
}
