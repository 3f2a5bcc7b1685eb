package wsjava.protocol;

import java.nio.ByteBuffer;
import java.util.Random;

/**
 * Limits that say no at random (seeded), never more than three times in a row so a stopped
 * assembler always goes on, and the way a server feeds input under limits: what the assembler
 * leaves is copied (the server's carried input) and fed again after {@link MessageAssembler#resume()}.
 * Stopping and going on must never change what a stream delivers.
 *
 * <p>It also keeps the books as a server's budget does: after each pass the assembler may hold no
 * more than it held after the last one plus what it was granted since (a buffer that comes larger
 * than was asked for is memory nobody counted).
 */
final class StallingLimits implements InboundLimits {

    private final Random random;
    private final int percent;
    private int refusedInARow;
    private long heldAfterLastPass;
    private long grantedInPass;

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

    /** Memory asked for: granted unless this is a no, and then on the books. */
    private boolean grant(long bytes) {
        if (no()) {
            return false;
        }
        grantedInPass += bytes;
        return true;
    }

    @Override public boolean mayGrow(long bytes) { return grant(bytes); }
    @Override public boolean mayInflate(int bytes) { return !no(); }
    @Override public boolean frameDone() { return !no(); }
    @Override public boolean mayStartMessage() { return !no(); }
    @Override public boolean mayKeep(int bytes) { return grant(bytes); }

    /** A pass ended: what the assembler holds now must have been granted. */
    private void passEnded(MessageAssembler assembler) {
        long held = assembler.bufferCapacity();
        if (held > heldAfterLastPass + grantedInPass) {
            throw new IllegalStateException("the assembler holds " + held + " bytes, " + (held - heldAfterLastPass - grantedInPass)
                    + " more than it held before the pass and was granted in it");
        }
        heldAfterLastPass = held;
        grantedInPass = 0;
    }

    /** Parses {@code chunk} completely, as a server would across passes: stopped, carried, resumed. */
    void feed(FrameParser parser, MessageAssembler assembler, ByteBuffer chunk) {
        ByteBuffer input = chunk;
        for (int passes = 0; ; passes++) {
            if (assembler.resume()) {
                parser.parse(input, assembler);
            }
            passEnded(assembler);
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
