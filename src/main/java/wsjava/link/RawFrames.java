package wsjava.link;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import wsjava.protocol.CloseCodes;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;
import wsjava.protocol.Utf8Validator;
import wsjava.server.WebSocketConnection;

/**
 * Frames that WL code encoded itself (WLJS writes {@code BinaryWrite[client, frame]}), sent as
 * messages through the connection's own writer, so they never interleave with its other messages.
 * Text whose bytes are not UTF-8 goes as a binary message instead of being corrupted.
 */
final class RawFrames {

    private RawFrames() {
    }

    /** Sends every whole frame in {@code bytes}; the number of bytes taken, or -1 when a frame is bad, cut short or not sent. */
    static int send(WebSocketConnection connection, byte[] bytes) {
        // Server frames, so unmasked; no size limit beyond what already arrived from WL.
        WholeFrames parsed = WholeFrames.parse(bytes, Role.CLIENT, Integer.MAX_VALUE - 64);
        if (parsed.error != null || parsed.end != bytes.length) {
            return -1;   // a bad frame, or one cut short: send nothing rather than half of what WL meant
        }
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        int messageOpcode = -1;
        for (Frame f : parsed.frames) {
            if (OpCode.isControl(f.opcode())) {
                if (!sendControl(connection, f)) {
                    return -1;
                }
                continue;
            }
            if (f.opcode() != OpCode.CONTINUATION) {
                messageOpcode = f.opcode();
                message.reset();
            }
            message.write(f.payload(), 0, f.payload().length);
            if (f.fin() && !sendMessage(connection, messageOpcode, message.toByteArray())) {
                return -1;
            }
        }
        return bytes.length;
    }

    /** A text message when the bytes are UTF-8 (or {@code opcode} says binary), otherwise binary. */
    static boolean sendMessage(WebSocketConnection connection, int opcode, byte[] payload) {
        boolean text = opcode == OpCode.TEXT && Utf8Validator.isValid(payload, 0, payload.length);
        return text ? connection.sendText(payload) : connection.sendBinary(payload);
    }

    private static boolean sendControl(WebSocketConnection connection, Frame f) {
        byte[] p = f.payload();
        switch (f.opcode()) {
            case OpCode.PING:
                return connection.ping(p);
            case OpCode.CLOSE:
                int code = p.length >= 2 ? ((p[0] & 0xff) << 8) | (p[1] & 0xff) : CloseCodes.NORMAL;
                if (!connection.isOpen() || !CloseCodes.isValidOnWire(code)) {
                    return false;
                }
                connection.close(code, p.length > 2 ? new String(p, 2, p.length - 2, StandardCharsets.UTF_8) : "");
                return true;
            default:
                return connection.isOpen();   // a pong from WL has nothing to answer
        }
    }
}
