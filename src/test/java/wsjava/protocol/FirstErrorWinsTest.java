package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/**
 * A compressed message that is both too big and invalid closes with the error its bytes reach
 * first, however the frames arrive: fed whole, a byte at a time, or stopped and resumed by the
 * inbound limits (the compressed-stream fuzzer found 1009 in one way and 1007 in another). Not
 * the inflation-ratio rule: it is measured against the input zlib has consumed, which depends on
 * how the input was cut (docs/security.md, known limits).
 */
class FirstErrorWinsTest {

    private static final int LIMIT = 64 * 1024;

    /** Raw DEFLATE of {@code text} as permessage-deflate sends it: sync-flushed, its 00 00 FF FF tail cut. */
    private static byte[] compressed(byte[] text) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        deflater.setInput(text);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        int n;
        while ((n = deflater.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH)) > 0) {
            out.write(buf, 0, n);
        }
        deflater.end();
        byte[] all = out.toByteArray();
        return Arrays.copyOf(all, all.length - 4);
    }

    /** The close code of one text message carrying {@code payload}, fed in pieces of {@code piece} bytes, or stalled at random. */
    private static int closeCode(byte[] payload, int piece, StallingLimits limits) {
        MessageInflater inflater = new MessageInflater(false, 0, null, null);
        MessageAssembler assembler = new MessageAssembler(new MessageHandler() {
            @Override public void onText(String text) { }
            @Override public void onBinary(byte[] data) { }
            @Override public void onPing(byte[] p) { }
            @Override public void onPong(byte[] p) { }
            @Override public void onClose(int code, String reason) { }
        }, LIMIT, inflater, null, 0, limits);
        FrameParser parser = new FrameParser(Role.CLIENT, 1 << 24, DeflateAgreement.RSV);    // compressed frames may pass the limit
        byte[] frames = new FrameWriter(Role.SERVER, 1 << 20).message(OpCode.TEXT, payload, 0, payload.length, true);
        try {
            CloseException e = assertThrows(CloseException.class, () -> {
                for (int at = 0; at < frames.length; at += piece) {
                    limits.feed(parser, assembler, ByteBuffer.wrap(frames, at, Math.min(piece, frames.length - at)));
                }
            });
            return e.code();
        } finally {
            inflater.release();
        }
    }

    private static void assertEveryWay(int expected, byte[] payload) {
        for (int piece : new int[] {1 << 20, 1, 7, 4096}) {
            assertEquals(expected, closeCode(payload, piece, new StallingLimits(0, 0)), "pieces of " + piece);
        }
        for (long seed = 1; seed <= 20; seed++) {
            assertEquals(expected, closeCode(payload, 1 << 20, new StallingLimits(seed, 30)), "stalled, seed " + seed);
        }
    }

    @Test
    void badUtf8BeforeTheLimitIsInvalidPayloadEvenWhenTheMessageGoesOnPastIt() {
        byte[] text = new byte[LIMIT + 1000];
        Arrays.fill(text, (byte) 'a');
        text[LIMIT - 5] = (byte) 0xFF;          // never valid in UTF-8, five bytes before the limit
        assertEveryWay(CloseCodes.INVALID_PAYLOAD, compressed(text));
    }

    /** A stored block of {@code len} bytes of 'a' (RFC 1951 section 3.2.4). */
    private static byte[] stored(int len) {
        byte[] block = new byte[5 + len];
        block[1] = (byte) len;
        block[2] = (byte) (len >>> 8);
        block[3] = (byte) ~len;
        block[4] = (byte) (~len >>> 8);
        Arrays.fill(block, 5, block.length, (byte) 'a');
        return block;
    }

    @Test
    void oneBytePastTheLimitAtABlocksEndBeforeAnInvalidBlockIsTooBig() {
        // zlib reads the next block's header in the same call that writes the byte past the limit,
        // and the JDK throws for it: that call's output still counts (from the reviewer's case).
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        stream.writeBytes(stored(65535));
        stream.writeBytes(stored(2));          // 65,537 bytes: one past the limit
        stream.write(0x07);                    // BFINAL with block type 3, which does not exist
        assertEveryWay(CloseCodes.MESSAGE_TOO_BIG, stream.toByteArray());
    }

    @Test
    void passingTheLimitBeforeCorruptDataIsTooBig() {
        byte[] text = new byte[LIMIT + 1000];
        Arrays.fill(text, (byte) 'a');
        byte[] good = compressed(text);
        byte[] corrupt = Arrays.copyOf(good, good.length + 5);
        // A stored block whose length and its complement disagree: invalid once zlib reads it.
        System.arraycopy(new byte[] {0x00, 0x05, 0x00, 0x05, 0x00}, 0, corrupt, good.length, 5);
        assertEveryWay(CloseCodes.MESSAGE_TOO_BIG, corrupt);
    }
}
