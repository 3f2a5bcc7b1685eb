package wsjava.protocol;

import java.nio.ByteBuffer;
import java.util.Random;

/**
 * Limits that say no at random (seeded), never more than three times in a row so a stopped
 * assembler always goes on, and the way a server feeds input under limits: what the assembler
 * leaves is copied (the server's carried input) and fed again after {@link MessageAssembler#resume()}.
 * Stopping and going on must never change what a stream delivers.
 */
final class StallingLimits implements InboundLimits {

    private final Random random;
    private final int percent;
    private int refusedInARow;

    /** Says no to about {@code percent} in a hundred requests. */
    StallingLimits(long seed, int percent) {
        this.random = new Random(seed);
        this.percent = percent;
    }

    private boolean no() {
        if (refusedInARow < 3 && random.nextInt(100) < percent) {
            refusedInARow++;
            return true;
        }
        refusedInARow = 0;
        return false;
    }

    @Override public boolean mayGrow(long bytes) { return !no(); }
    @Override public boolean mayInflate(int bytes) { return !no(); }
    @Override public boolean frameDone() { return !no(); }
    @Override public boolean mayStartMessage() { return !no(); }

    /** Parses {@code chunk} completely, as a server would across passes: stopped, carried, resumed. */
    static void feed(FrameParser parser, MessageAssembler assembler, ByteBuffer chunk) {
        ByteBuffer input = chunk;
        for (int passes = 0; ; passes++) {
            if (assembler.resume()) {
                parser.parse(input, assembler);
            }
            if (!input.hasRemaining()) {
                return;
            }
            if (passes > 10_000_000) {
                throw new IllegalStateException("the assembler never went on");
            }
            ByteBuffer carried = ByteBuffer.allocate(input.remaining()).put(input).flip();
            input = carried;
        }
    }
}
