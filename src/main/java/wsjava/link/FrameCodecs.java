package wsjava.link;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import wsjava.protocol.CloseException;
import wsjava.protocol.FrameHeader;
import wsjava.protocol.FrameListener;
import wsjava.protocol.FrameParser;
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
        // The parser unmasks in place: parse a copy, so the bytes left over stay as they were sent.
        ByteBuffer in = ByteBuffer.wrap(bytes.clone());
        List<String> frames = new ArrayList<>();
        int[] wholeEnd = {0};
        FrameListener listener = new FrameListener() {
            private FrameHeader header;
            private byte[] payload;
            private int size;

            @Override
            public void onFrameStart(FrameHeader h) {
                header = h;
                payload = new byte[h.payloadLength()];
                size = 0;
            }

            @Override
            public void onFramePayload(byte[] buf, int off, int len) {
                System.arraycopy(buf, off, payload, size, len);
                size += len;
            }

            @Override
            public void onFrameEnd() {
                frames.add(Integer.toString(header.opcode()));
                frames.add(header.fin() ? "1" : "0");
                frames.add(Base64.getEncoder().encodeToString(payload));
                wholeEnd[0] = in.position();   // the parser has consumed exactly this frame
            }
        };
        int code = 0;
        String reason = "";
        try {
            new FrameParser(role, maxFramePayload).parse(in, listener);
        } catch (CloseException e) {
            code = e.code();
            reason = e.getMessage();
        }
        List<String> out = new ArrayList<>();
        out.add(Integer.toString(code));
        out.add(reason);
        byte[] rest = java.util.Arrays.copyOfRange(bytes, wholeEnd[0], bytes.length);
        out.add(code == 0 ? Base64.getEncoder().encodeToString(rest) : "");
        out.addAll(frames);
        return out.toArray(new String[0]);
    }
}
