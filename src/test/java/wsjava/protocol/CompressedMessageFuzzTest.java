package wsjava.protocol;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;

/**
 * Fuzzes inflation: arbitrary bytes as the payload of compressed messages, in frames of any
 * chunking, under a 64 KiB message limit. Invariants: only a {@link CloseException} with 1002,
 * 1007 or 1009 escapes, and the message buffer never grows past the limit.
 */
class CompressedMessageFuzzTest {

    private static final int LIMIT = 64 * 1024;

    private static final MessageHandler DISCARD = new MessageHandler() {
        @Override public void onText(String text) { }
        @Override public void onBinary(byte[] data) { }
        @Override public void onPing(byte[] payload) { }
        @Override public void onPong(byte[] payload) { }
        @Override public void onClose(int code, String reason) { }
    };

    @FuzzTest
    void compressedStream(byte[] input) {
        fuzzerTestOneInput(input);
    }

    public static void fuzzerTestOneInput(byte[] input) {
        if (input.length < 2) {
            return;
        }
        boolean noContextTakeover = (input[0] & 1) != 0;
        int frameSize = 1 + (input[1] & 0xFF);
        MessageInflater inflater = new MessageInflater(noContextTakeover);
        MessageAssembler assembler = new MessageAssembler(DISCARD, LIMIT, inflater);
        FrameParser parser = new FrameParser(Role.CLIENT, LIMIT, DeflateAgreement.RSV);
        FrameWriter writer = new FrameWriter(Role.SERVER, frameSize);
        try {
            int payload = input.length - 2;
            byte[] frames = writer.message((input[0] & 2) != 0 ? OpCode.TEXT : OpCode.BINARY, input, 2, payload, true);
            parser.parse(ByteBuffer.wrap(frames), assembler);
            parser.parse(ByteBuffer.wrap(frames), assembler);     // a second message, on the same context
        } catch (CloseException e) {
            int code = e.code();
            if (code != CloseCodes.PROTOCOL_ERROR && code != CloseCodes.INVALID_PAYLOAD && code != CloseCodes.MESSAGE_TOO_BIG) {
                throw new IllegalStateException("inflating failed with " + code, e);
            }
        } finally {
            inflater.release();
        }
        if (assembler.bufferCapacity() > LIMIT) {
            throw new IllegalStateException("message buffer grew to " + assembler.bufferCapacity());
        }
    }
}
