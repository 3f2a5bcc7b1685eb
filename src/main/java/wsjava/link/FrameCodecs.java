package wsjava.link;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import wsjava.protocol.CloseException;
import wsjava.protocol.Frame;
import wsjava.protocol.FrameCollector;
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
        FrameCollector collector = new FrameCollector();
        int[] wholeEnd = {0};
        FrameListener listener = new FrameListener() {
            @Override
            public void onFrameStart(FrameHeader h) {
                collector.onFrameStart(h);
            }

            @Override
            public void onFramePayload(byte[] buf, int off, int len) {
                collector.onFramePayload(buf, off, len);
            }

            @Override
            public void onFrameEnd() {
                collector.onFrameEnd();
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
        for (Frame f : collector.drain()) {
            out.add(Integer.toString(f.opcode()));
            out.add(f.fin() ? "1" : "0");
            out.add(Base64.getEncoder().encodeToString(f.payload()));
        }
        return out.toArray(new String[0]);
    }
}
