package wsjava.protocol;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;

/**
 * Fuzzes inflation: arbitrary bytes as the payload of compressed messages, in frames of any
 * chunking, under a 64 KiB message limit. Invariants: only a {@link CloseException} with 1002,
 * 1007 or 1009 escapes, the message buffer never grows past the limit, and inflating under limits
 * that stop it at random (the rest of the input carried over and fed again) gives the same messages
 * and the same close code as inflating straight through.
 */
class CompressedMessageFuzzTest {

    private static final int LIMIT = 64 * 1024;

    /** What a run delivered: messages in order, then the close code. */
    private static final class Outcome implements MessageHandler {
        final java.util.List<String> events = new java.util.ArrayList<>();

        @Override public void onText(String text) { events.add("text " + text.hashCode() + " " + text.length()); }
        @Override public void onBinary(byte[] data) { events.add("binary " + java.util.Arrays.hashCode(data) + " " + data.length); }
        @Override public void onPing(byte[] payload) { }
        @Override public void onPong(byte[] payload) { }
        @Override public void onClose(int code, String reason) { }
    }

    @FuzzTest
    void compressedStream(byte[] input) {
        fuzzerTestOneInput(input);
    }

    public static void fuzzerTestOneInput(byte[] input) {
        if (input.length < 2) {
            return;
        }
        java.util.List<String> straight = run(input, null);
        java.util.List<String> stalled = run(input, new StallingLimits(java.util.Arrays.hashCode(input), 30));
        if (!straight.equals(stalled)) {
            throw new IllegalStateException("stopping and going on changed the result:\n" + straight + "\n" + stalled);
        }
    }

    /** {@code stalling}: limits that stop the assembler now and then, or null for none. */
    private static java.util.List<String> run(byte[] input, StallingLimits stalling) {
        StallingLimits limits = stalling == null ? new StallingLimits(0, 0) : stalling;
        boolean noContextTakeover = (input[0] & 1) != 0;
        int frameSize = 1 + (input[1] & 0xFF);
        Outcome outcome = new Outcome();
        MessageInflater inflater = new MessageInflater(noContextTakeover, 200, null, null);
        MessageAssembler assembler = new MessageAssembler(outcome, LIMIT, inflater, null, 0, limits);
        FrameParser parser = new FrameParser(Role.CLIENT, LIMIT, DeflateAgreement.RSV);
        FrameWriter writer = new FrameWriter(Role.SERVER, frameSize);
        try {
            int payload = input.length - 2;
            byte[] frames = writer.message((input[0] & 2) != 0 ? OpCode.TEXT : OpCode.BINARY, input, 2, payload, true);
            limits.feed(parser, assembler, ByteBuffer.wrap(frames));
            limits.feed(parser, assembler, ByteBuffer.wrap(frames));     // a second message, on the same context
        } catch (CloseException e) {
            int code = e.code();
            if (code != CloseCodes.PROTOCOL_ERROR && code != CloseCodes.INVALID_PAYLOAD && code != CloseCodes.MESSAGE_TOO_BIG) {
                throw new IllegalStateException("inflating failed with " + code, e);
            }
            outcome.events.add("close " + code);
        } finally {
            inflater.release();
        }
        if (assembler.bufferCapacity() > LIMIT) {
            throw new IllegalStateException("message buffer grew to " + assembler.bufferCapacity());
        }
        return outcome.events;
    }
}
