package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/**
 * Adversarial review after issue 20: a compressed message with bytes after a block that has
 * BFINAL set left those bytes unread, which the connection took for a declined step: it waited
 * for room it never needed, with no echo, no close and no timeout (50 connections frozen for 32 s).
 * The bytes now start a new DEFLATE stream, and invalid ones fail as invalid data.
 */
class InflateAfterFinalBlockTest {

    private static byte[] finishedStream(String text) {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        d.setInput(text.getBytes(StandardCharsets.UTF_8));
        d.finish();      // a last block with BFINAL set
        byte[] out = new byte[1024];
        int n = d.deflate(out);
        d.end();
        return java.util.Arrays.copyOf(out, n);
    }

    private static byte[] inflateAll(byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MessageInflater inflater = new MessageInflater(true);
        MessageInflater.Sink sink = (buf, off, len) -> out.write(buf, off, len);
        ByteBuffer input = ByteBuffer.wrap(payload);
        inflater.inflate(input, sink);
        if (input.hasRemaining()) {
            throw new AssertionError(input.remaining() + " bytes left unread with a sink that never declines");
        }
        inflater.finish(sink);
        return out.toByteArray();
    }

    @Test
    void aSecondStreamAfterTheFinalBlockIsInflatedToo() {
        byte[] first = finishedStream("first half, ");
        byte[] second = finishedStream("second half");
        byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        assertArrayEquals("first half, second half".getBytes(StandardCharsets.UTF_8), inflateAll(both));
    }

    @Test
    void garbageAfterTheFinalBlockFailsAsInvalidData() {
        byte[] first = finishedStream("hello");
        byte[] withGarbage = java.util.Arrays.copyOf(first, first.length + 4);
        withGarbage[first.length] = (byte) 0xFF;      // block type 3: reserved, invalid
        withGarbage[first.length + 1] = (byte) 0xFF;
        withGarbage[first.length + 2] = (byte) 0xFF;
        withGarbage[first.length + 3] = (byte) 0xFF;
        assertThrows(BadPayloadException.class, () -> inflateAll(withGarbage));
    }
}
