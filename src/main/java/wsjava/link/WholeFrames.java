package wsjava.link;

import java.nio.ByteBuffer;
import java.util.List;
import wsjava.protocol.CloseException;
import wsjava.protocol.Frame;
import wsjava.protocol.FrameCollector;
import wsjava.protocol.FrameHeader;
import wsjava.protocol.FrameListener;
import wsjava.protocol.FrameParser;
import wsjava.protocol.Role;

/**
 * The whole frames in a byte array that WL handed over, and where the last of them ends (the
 * bytes after it belong to a frame cut short). The parser unmasks in place, so it parses a copy:
 * the caller's bytes stay as they were sent.
 */
final class WholeFrames {

    final List<Frame> frames;
    /** Offset just past the last whole frame. */
    final int end;
    /** The violation that stopped parsing, or null. */
    final CloseException error;

    private WholeFrames(List<Frame> frames, int end, CloseException error) {
        this.frames = frames;
        this.end = end;
        this.error = error;
    }

    static WholeFrames parse(byte[] bytes, Role role, int maxFramePayload) {
        ByteBuffer in = ByteBuffer.wrap(bytes.clone());
        FrameCollector collector = new FrameCollector();
        int[] end = {0};
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
                end[0] = in.position();   // the parser has consumed exactly this frame
            }
        };
        CloseException error = null;
        try {
            new FrameParser(role, maxFramePayload).parse(in, listener);
        } catch (CloseException e) {
            error = e;
        }
        return new WholeFrames(collector.drain(), end[0], error);
    }
}
