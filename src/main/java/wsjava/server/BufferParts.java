package wsjava.server;

import java.nio.ByteBuffer;

/** Helpers for a message held as several buffers (a frame header, then a payload), as the outbound queue takes it. */
final class BufferParts {

    private BufferParts() {
    }

    static long lengthOf(ByteBuffer[] parts) {
        long length = 0;
        for (ByteBuffer part : parts) {
            length += part.remaining();
        }
        return length;
    }

    /** The parts' remaining bytes, copied into one buffer (their positions move to their limits). */
    static ByteBuffer copyOf(ByteBuffer[] parts) {
        byte[] copy = new byte[(int) lengthOf(parts)];
        int at = 0;
        for (ByteBuffer part : parts) {
            int n = part.remaining();
            part.get(copy, at, n);
            at += n;
        }
        return ByteBuffer.wrap(copy);
    }

    /** Views of {@code parts} that offer at most {@code heapBudget} heap bytes in all (the JDK copies heap bytes it is offered). */
    static ByteBuffer[] offerable(ByteBuffer[] parts, long heapBudget) {
        ByteBuffer[] views = new ByteBuffer[parts.length];
        long left = heapBudget;
        for (int i = 0; i < parts.length; i++) {
            views[i] = parts[i].duplicate();
            if (!parts[i].isDirect()) {
                int offered = (int) Math.min(parts[i].remaining(), left);
                views[i].limit(parts[i].position() + offered);
                left -= offered;
            }
        }
        return views;
    }

    /** Moves the parts' positions past {@code bytes} written. */
    static void skip(ByteBuffer[] parts, long bytes) {
        long left = bytes;
        for (ByteBuffer part : parts) {
            int step = (int) Math.min(left, part.remaining());
            part.position(part.position() + step);
            left -= step;
        }
    }
}
