package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import wsjava.testing.Hex;

class MessageAssemblerTest {

    /** Records what the assembler delivers, as readable strings. */
    static final class Recorder implements MessageHandler {
        final List<String> events = new ArrayList<>();
        final List<byte[]> binaries = new ArrayList<>();

        @Override public void onText(String text) { events.add("text:" + text); }
        @Override public void onBinary(byte[] data) { events.add("binary:" + data.length); binaries.add(data); }
        @Override public void onPing(byte[] p) { events.add("ping:" + new String(p, StandardCharsets.UTF_8)); }
        @Override public void onPong(byte[] p) { events.add("pong:" + new String(p, StandardCharsets.UTF_8)); }
        @Override public void onClose(int code, String reason) { events.add("close:" + code + ":" + reason); }
    }

    private final FrameWriter client = new FrameWriter(Role.CLIENT, 1 << 20, new Random(9));
    private final Recorder recorder = new Recorder();
    private final FrameParser parser = new FrameParser(Role.SERVER, 1 << 20);
    private final MessageAssembler assembler = new MessageAssembler(recorder, 1000);

    private void feed(byte[]... frames) {
        for (byte[] f : frames) {
            parser.parse(ByteBuffer.wrap(f), assembler);
        }
    }

    private byte[] frame(int opcode, boolean fin, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return client.frame(opcode, fin, b, 0, b.length);
    }

    @Test
    void aClaimedLengthAllocatesNothingUntilItsBytesArrive() {
        MessageAssembler big = new MessageAssembler(recorder, 16 << 20);
        FrameParser p = new FrameParser(Role.SERVER, 16 << 20);
        byte[] whole = client.frame(OpCode.BINARY, true, new byte[16 << 20], 0, 16 << 20);
        p.parse(ByteBuffer.wrap(whole, 0, 14), big);           // the header alone: 16 MiB claimed
        assertEquals(0, big.bufferCapacity(), "no payload arrived, so nothing is held");
        p.parse(ByteBuffer.wrap(whole, 14, 5000), big);
        assertTrue(big.bufferCapacity() <= 2 * 5000 + 1024, "memory follows what arrived: " + big.bufferCapacity());
        p.parse(ByteBuffer.wrap(whole, 5014, whole.length - 5014), big);
        assertEquals(16 << 20, recorder.binaries.get(0).length);
        assertEquals(0, big.bufferCapacity(), "the whole message was handed over, nothing kept");
    }

    @Test
    void aTextMessageLeavesNoLargeBufferBehind() {
        MessageAssembler a = new MessageAssembler(recorder, 1 << 20);
        byte[] text = client.frame(OpCode.TEXT, true, "x".repeat(65_000).getBytes(StandardCharsets.UTF_8), 0, 65_000);
        new FrameParser(Role.SERVER, 1 << 20).parse(ByteBuffer.wrap(text), a);
        assertTrue(a.bufferCapacity() <= MessageAssembler.IDLE_BUFFER_LIMIT, "kept " + a.bufferCapacity());
    }

    @Test
    void joinsFragmentsWithPingsBetween() {
        feed(frame(OpCode.TEXT, false, "Hel"), frame(OpCode.PING, true, "p1"), frame(OpCode.CONTINUATION, false, "l"),
                frame(OpCode.PONG, true, "p2"), frame(OpCode.CONTINUATION, true, "o"));
        assertEquals(List.of("ping:p1", "pong:p2", "text:Hello"), recorder.events);
    }

    @Test
    void emptyFragmentsAreFine() {
        feed(frame(OpCode.TEXT, false, ""), frame(OpCode.CONTINUATION, false, ""), frame(OpCode.CONTINUATION, true, ""));
        assertEquals(List.of("text:"), recorder.events);
    }

    @Test
    void binaryMessagesArriveWhole() {
        byte[] data = new byte[700];
        new Random(1).nextBytes(data);
        feed(client.frame(OpCode.BINARY, false, data, 0, 300), client.frame(OpCode.CONTINUATION, true, data, 300, 400));
        assertArrayEquals(data, recorder.binaries.get(0));
    }

    @Test
    void continuationWithNothingToContinueFails() {
        for (boolean fin : new boolean[] {true, false}) {
            MessageAssembler fresh = new MessageAssembler(recorder, 1000);
            CloseException e = assertThrows(CloseException.class, () -> new FrameParser(Role.SERVER, 100)
                    .parse(ByteBuffer.wrap(frame(OpCode.CONTINUATION, fin, "x")), fresh));
            assertEquals(1002, e.code());
        }
    }

    @Test
    void newDataFrameInsideAFragmentedMessageFails() {
        feed(frame(OpCode.TEXT, false, "a"));
        CloseException e = assertThrows(CloseException.class, () -> feed(frame(OpCode.BINARY, true, "b")));
        assertEquals(1002, e.code());
    }

    @Test
    void invalidUtf8FailsAtTheFragmentThatCarriesIt() {
        feed(frame(OpCode.TEXT, false, "valid "));
        byte[] bad = {(byte) 0xED, (byte) 0xA0, (byte) 0x80};  // a UTF-16 surrogate encoded as UTF-8
        CloseException e = assertThrows(CloseException.class, () -> feed(client.frame(OpCode.CONTINUATION, false, bad, 0, 3)));
        assertEquals(1007, e.code());
    }

    @Test
    void invalidUtf8FailsBeforeTheFrameEnds() {
        // First half of a frame arrives with a bad byte: rejected without waiting for the rest.
        byte[] payload = new byte[100];
        payload[10] = (byte) 0xFF;
        byte[] wire = client.frame(OpCode.TEXT, true, payload, 0, 100);
        CloseException e = assertThrows(CloseException.class, () -> parser.parse(ByteBuffer.wrap(wire, 0, 30), assembler));
        assertEquals(1007, e.code());
    }

    @Test
    void textSplitInsideACodePointIsAccepted() {
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8);
        feed(client.frame(OpCode.TEXT, false, euro, 0, 1), client.frame(OpCode.CONTINUATION, false, euro, 1, 1),
                client.frame(OpCode.CONTINUATION, true, euro, 2, 1));
        assertEquals(List.of("text:€"), recorder.events);
    }

    @Test
    void textEndingInsideACodePointFails() {
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8);
        assertEquals(1007, assertThrows(CloseException.class, () -> feed(client.frame(OpCode.TEXT, true, euro, 0, 2))).code());
    }

    @Test
    void messageOverTheLimitFailsWith1009AtTheHeader() {
        feed(client.frame(OpCode.BINARY, false, new byte[600], 0, 600));
        CloseException e = assertThrows(CloseException.class, () -> feed(client.frame(OpCode.CONTINUATION, true, new byte[401], 0, 401)));
        assertEquals(1009, e.code());
    }

    @Test
    void closeFramesAreValidated() {
        assertEquals(1002, closeFailure("03").code());                 // 1-byte payload
        assertEquals(1002, closeFailure("03 ed").code());              // 1005 may not be sent
        assertEquals(1007, closeFailure("03 e8 ff").code());           // reason not UTF-8
        for (int code : new int[] {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535}) {
            assertEquals(1002, closeFailure(String.format("%02x %02x", code >> 8 & 0xFF, code & 0xFF)).code(), "code " + code);
        }
    }

    @Test
    void validCloseCodesAreDelivered() {
        for (int code : new int[] {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999}) {
            Recorder r = new Recorder();
            new FrameParser(Role.SERVER, 100).parse(ByteBuffer.wrap(client.close(code, "bye")), new MessageAssembler(r, 100));
            assertEquals(List.of("close:" + code + ":bye"), r.events);
        }
    }

    @Test
    void emptyCloseMeansNoStatus() {
        feed(client.control(OpCode.CLOSE, new byte[0]));
        assertEquals(List.of("close:1005:"), recorder.events);
    }

    private CloseException closeFailure(String hexPayload) {
        byte[] payload = Hex.bytes(hexPayload);
        return assertThrows(CloseException.class, () -> new FrameParser(Role.SERVER, 100)
                .parse(ByteBuffer.wrap(client.control(OpCode.CLOSE, payload)), new MessageAssembler(new Recorder(), 100)));
    }
}
