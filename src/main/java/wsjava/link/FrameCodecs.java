package wsjava.link;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import wsjava.protocol.Frame;
import wsjava.protocol.Role;

/** Stateless frame decoding for WL code that owns its sockets: whole frames plus the bytes left over. */
final class FrameCodecs {

    private FrameCodecs() {
    }

    /**
     * Flat result: close code (0 when fine), reason, Base64 of the bytes after the last whole
     * frame, then three strings per frame: opcode, "1"/"0" for FIN, Base64 payload.
     */
    static String[] decode(byte[] bytes, Role role, int maxFramePayload) {
        WholeFrames parsed = WholeFrames.parse(bytes, role, maxFramePayload);
        int code = parsed.error == null ? 0 : parsed.error.code();
        String reason = parsed.error == null ? "" : parsed.error.getMessage();
        List<String> out = new ArrayList<>();
        out.add(Integer.toString(code));
        out.add(reason);
        byte[] rest = java.util.Arrays.copyOfRange(bytes, parsed.end, bytes.length);
        out.add(code == 0 ? Base64.getEncoder().encodeToString(rest) : "");
        for (Frame f : parsed.frames) {
            out.add(Integer.toString(f.opcode()));
            out.add(f.fin() ? "1" : "0");
            out.add(Base64.getEncoder().encodeToString(f.payload()));
        }
        return out.toArray(new String[0]);
    }
}
