package wsjava.protocol;

import java.util.ArrayList;
import java.util.List;

/** A {@link FrameListener} that keeps whole frames, for callers that want frames rather than messages. */
public final class FrameCollector implements FrameListener {

    private final List<Frame> frames = new ArrayList<>();
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
        frames.add(new Frame(header, payload));
        header = null;
    }

    /** Complete frames so far, removing them from the collector. */
    public List<Frame> drain() {
        List<Frame> out = new ArrayList<>(frames);
        frames.clear();
        return out;
    }
}
