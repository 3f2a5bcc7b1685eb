package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The assembler's zero-copy path: a binary message that arrives in one piece reaches the handler as
 * a read-only view of the (direct) read buffer; everything else is assembled into an array.
 */
class MessageViewTest {

    /** Records how each binary message came: as a view (with its bytes copied out for checking) or as an array. */
    static final class Recorder implements MessageHandler {
        final List<String> kinds = new ArrayList<>();
        final List<byte[]> payloads = new ArrayList<>();

        @Override public void onText(String text) { kinds.add("text"); payloads.add(text.getBytes(StandardCharsets.UTF_8)); }
        @Override public void onBinary(byte[] data) { kinds.add("array"); payloads.add(data); }
        @Override public void onPing(byte[] p) { kinds.add("ping"); }
        @Override public void onPong(byte[] p) { kinds.add("pong"); }
        @Override public void onClose(int code, String reason) { kinds.add("close"); }

        @Override
        public void onBinary(ByteBuffer view) {
            kinds.add(view.isReadOnly() ? "view" : "writable view");
            byte[] copy = new byte[view.remaining()];
            view.get(copy);
            payloads.add(copy);
        }
    }

    private final FrameWriter client = new FrameWriter(Role.CLIENT, 1 << 20, new Random(3));
    private final Recorder recorder = new Recorder();
    private final FrameParser parser = new FrameParser(Role.SERVER, 1 << 20);
    private final MessageAssembler assembler = new MessageAssembler(recorder, 4 << 20);

    private static ByteBuffer direct(byte[] bytes, int off, int len) {
        return ByteBuffer.allocateDirect(len).put(bytes, off, len).flip();
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void aBinaryMessageInOnePieceIsAReadOnlyViewAndHoldsNoBuffer() {
        byte[] payload = random(3000, 1);
        byte[] wire = client.binary(payload);
        parser.parse(direct(wire, 0, wire.length), assembler);
        assertEquals(List.of("view"), recorder.kinds);
        assertArrayEquals(payload, recorder.payloads.get(0), "unmasked in place in the direct buffer");
        assertEquals(0, assembler.bufferCapacity(), "nothing was copied into an assembly buffer");
    }

    @Test
    void severalMessagesInOneReadAreEachAView() {
        byte[] a = random(10, 2);
        byte[] b = random(500, 3);
        byte[] wire = concat(client.binary(a), client.control(OpCode.PING, new byte[3]), client.binary(b));
        parser.parse(direct(wire, 0, wire.length), assembler);
        assertEquals(List.of("view", "ping", "view"), recorder.kinds);
        assertArrayEquals(a, recorder.payloads.get(0));
        assertArrayEquals(b, recorder.payloads.get(1));
    }

    @Test
    void aMessageSplitAcrossReadsIsAssembledIntoAnExactArray() {
        byte[] payload = random(100_000, 4);
        byte[] wire = client.binary(payload);
        parser.parse(direct(wire, 0, 30_000), assembler);
        parser.parse(direct(wire, 30_000, wire.length - 30_000), assembler);
        assertEquals(List.of("array"), recorder.kinds);
        assertArrayEquals(payload, recorder.payloads.get(0));
    }

    @Test
    void fragmentsAndTextAreNeverViews() {
        byte[] first = random(100, 5);
        byte[] second = random(50, 6);
        byte[] text = "Plot[Sin[x], {x, 0, 2 Pi}]".getBytes(StandardCharsets.UTF_8);
        byte[] wire = concat(client.frame(OpCode.BINARY, false, first, 0, first.length),
                client.frame(OpCode.CONTINUATION, true, second, 0, second.length),
                client.frame(OpCode.TEXT, true, text, 0, text.length));
        parser.parse(direct(wire, 0, wire.length), assembler);
        assertEquals(List.of("array", "text"), recorder.kinds);
        assertArrayEquals(concat(first, second), recorder.payloads.get(0));
        assertArrayEquals(text, recorder.payloads.get(1));
    }

    @Test
    void theDefaultHandlerGetsACopyThatOutlivesTheReadBuffer() {
        List<byte[]> arrays = new ArrayList<>();
        MessageHandler plain = new MessageHandler() {
            @Override public void onText(String text) { }
            @Override public void onBinary(byte[] data) { arrays.add(data); }
            @Override public void onPing(byte[] payload) { }
            @Override public void onPong(byte[] payload) { }
            @Override public void onClose(int code, String reason) { }
        };
        byte[] payload = random(777, 7);
        byte[] wire = client.binary(payload);
        ByteBuffer readBuffer = direct(wire, 0, wire.length);
        parser.parse(readBuffer, new MessageAssembler(plain, 1 << 20));
        readBuffer.clear();
        readBuffer.put(new byte[readBuffer.capacity()]);      // the next read overwrites the buffer
        assertArrayEquals(payload, arrays.get(0));
    }

    @Test
    void aCompressedMessageInflatesFromADirectBuffer() {
        byte[] text = "ListPlot[Table[Prime[n], {n, 100}]] ".repeat(200).getBytes(StandardCharsets.UTF_8);
        byte[] compressed = new MessageDeflater(6, true).compress(text, 0, text.length);
        byte[] wire = client.message(OpCode.TEXT, compressed, 0, compressed.length, true);
        MessageAssembler inflating = new MessageAssembler(recorder, 1 << 20, new MessageInflater(true));
        FrameParser rsv1 = new FrameParser(Role.SERVER, 1 << 20, DeflateAgreement.RSV);
        rsv1.parse(direct(wire, 0, 7), inflating);
        rsv1.parse(direct(wire, 7, wire.length - 7), inflating);
        assertEquals(List.of("text"), recorder.kinds);
        assertArrayEquals(text, recorder.payloads.get(0));
    }

    /** Growth is bounded by what arrived: never more than twice the bytes so far, however much a header claims. */
    @Test
    void theAssemblyBufferStaysWithinTwiceWhatArrived() {
        byte[] payload = random(1 << 20, 8);
        byte[] wire = client.binary(payload);
        int at = 0;
        int arrived = 0;
        int piece = 100_000;
        while (at < wire.length) {
            int n = Math.min(piece, wire.length - at);
            parser.parse(direct(wire, at, n), assembler);
            at += n;
            arrived = Math.max(0, at - 14);
            if (recorder.kinds.isEmpty()) {
                assertTrue(assembler.bufferCapacity() <= Math.max(1024, 2 * arrived),
                        assembler.bufferCapacity() + " bytes held after " + arrived + " arrived");
            }
        }
        assertEquals(List.of("array"), recorder.kinds);
        assertArrayEquals(payload, recorder.payloads.get(0));
        assertEquals(0, assembler.bufferCapacity(), "filled exactly, so handed over without a copy");
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
