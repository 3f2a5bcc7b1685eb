package wsjava.protocol;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzzes the frame parser with message assembly and UTF-8 validation, as a server reads them.
 * Invariants: only a {@link CloseException} ever escapes; the message buffer never holds more than
 * the limit, nor more than twice the payload that arrived (a claimed length allocates nothing), up
 * to the rounding of a pool's buffer; it never holds memory it was not granted ({@link StallingLimits});
 * and the same bytes split anywhere give the same messages and the same close code. The split run
 * reads the way the server does: chunks in direct buffers, unmasked in place, binary messages
 * assembled in taken buffers, each of which must be given back exactly once; and under limits that
 * stop the assembler at fuzzer-chosen points (memory refused, work used up, reading suspended), with
 * what it left carried over and fed again, and buffers refused now and then (direct memory short).
 */
class FrameStreamFuzzTest {

    @FuzzTest
    void frameStream(FuzzedDataProvider data) {
        fuzzerTestOneInput(data);
    }

    /** The entry point that Jazzer's command line ({@code ./wsjava fuzz}) calls. */
    public static void fuzzerTestOneInput(FuzzedDataProvider data) {
        int maxFrame = data.consumeInt(125, 1 << 20);
        int maxMessage = data.consumeInt(1, 1 << 20);
        int offHeapFrom = data.consumeInt(0, 300);
        int stallPercent = data.consumeInt(0, 60);
        long seed = data.consumeLong();
        int[] cuts = new int[data.consumeInt(0, 8)];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = data.consumeInt(0, 1 << 16);
        }
        byte[] stream = data.consumeRemainingAsBytes();
        Outcome whole = run(stream.clone(), new int[0], maxFrame, maxMessage, -1, null);
        Outcome split = run(stream.clone(), cuts, maxFrame, maxMessage, offHeapFrom, new StallingLimits(seed, stallPercent));
        if (!whole.equals(split)) {
            throw new IllegalStateException("split at " + Arrays.toString(cuts) + " changed the result:\n" + whole + "\n" + split);
        }
    }

    /** {@code offHeapFrom} below 0: heap input and arrays only; else as a server reads, from that size off the heap. */
    private static Outcome run(byte[] stream, int[] cuts, int maxFrame, int maxMessage, int offHeapFrom, StallingLimits stalling) {
        StallingLimits limits = stalling == null ? new StallingLimits(0, 0) : stalling;     // 0: never says no
        Outcome outcome = new Outcome();
        boolean asServer = offHeapFrom >= 0;
        CheckedBuffers buffers = asServer ? new CheckedBuffers(cuts.length) : null;
        MessageAssembler assembler = new MessageAssembler(outcome, maxMessage, null, buffers, Math.max(0, offHeapFrom),
                limits);
        FrameParser parser = new FrameParser(Role.SERVER, maxFrame);
        int[] bounds = Arrays.copyOf(cuts, cuts.length + 1);
        bounds[cuts.length] = stream.length;
        Arrays.sort(bounds);
        int at = 0;
        try {
            for (int bound : bounds) {
                int end = Math.min(Math.max(bound, at), stream.length);
                ByteBuffer chunk = asServer ? ByteBuffer.allocateDirect(end - at).put(stream, at, end - at).flip()
                        : ByteBuffer.wrap(stream, at, end - at);
                limits.feed(parser, assembler, chunk);
                at = end;
                int limit = (int) Math.min(maxMessage, Math.max(1024, 2L * at));
                limit = buffers == null ? limit : Math.max(limit, buffers.sizeOf(limit));     // a pool's buffer may round it up
                if (assembler.bufferCapacity() > limit) {
                    throw new IllegalStateException("buffer of " + assembler.bufferCapacity() + " bytes after " + at
                            + " bytes arrived (limit " + maxMessage + ")");
                }
            }
        } catch (CloseException e) {
            outcome.events.add("close " + e.code());
        }
        assembler.release();
        if (buffers != null && !buffers.out.isEmpty()) {
            throw new IllegalStateException(buffers.out.size() + " assembly buffers never given back");
        }
        return outcome;
    }

    /** Buffers for off-heap assembly that check each one taken is given back exactly once; now and then there is none. */
    private static final class CheckedBuffers implements MessageBuffers {
        final java.util.Map<ByteBuffer, Boolean> out = new java.util.IdentityHashMap<>();
        private final java.util.Random shortage;

        CheckedBuffers(long seed) {
            shortage = new java.util.Random(seed);
        }

        @Override
        public ByteBuffer take(int capacity) {
            if (shortage.nextInt(8) == 0) {
                return null;           // direct memory short: the assembler goes on in an array
            }
            ByteBuffer b = ByteBuffer.allocate(sizeOf(capacity));
            out.put(b, Boolean.TRUE);
            return b;
        }

        /** Rounded up, as a pool's sizes are: the assembler must reserve what it will hold. */
        @Override
        public int sizeOf(int capacity) {
            return (capacity + 4095) / 4096 * 4096;
        }

        @Override
        public void give(ByteBuffer buffer) {
            if (out.remove(buffer) == null) {
                throw new IllegalStateException("a buffer given back twice, or never taken");
            }
        }
    }

    /** What a stream produced: messages and control frames in order, then the close code if it failed. */
    private static final class Outcome implements MessageHandler {
        final List<String> events = new ArrayList<>();

        @Override public void onText(String text) { events.add("text " + text); }
        @Override public void onBinary(byte[] bytes) { events.add("binary " + Arrays.toString(bytes)); }
        @Override public void onPing(byte[] payload) { events.add("ping " + Arrays.toString(payload)); }
        @Override public void onPong(byte[] payload) { events.add("pong " + Arrays.toString(payload)); }
        @Override public void onClose(int code, String reason) { events.add("closed " + code + " " + reason); }

        @Override public boolean equals(Object o) { return o instanceof Outcome && ((Outcome) o).events.equals(events); }
        @Override public int hashCode() { return events.hashCode(); }
        @Override public String toString() { return events.toString(); }
    }
}
