package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import wsjava.testing.Hex;

class FrameParserTest {

    private static List<Frame> parse(Role role, byte[] bytes) {
        FrameCollector frames = new FrameCollector();
        new FrameParser(role, 1 << 24).parse(ByteBuffer.wrap(bytes), frames);
        return frames.drain();
    }

    private static CloseException failure(Role role, String hex) {
        return assertThrows(CloseException.class, () -> parse(role, Hex.bytes(hex)));
    }

    @Test
    void rfcUnmaskedHello() {
        List<Frame> frames = parse(Role.CLIENT, Hex.bytes("81 05 48 65 6c 6c 6f")); // unmasked text "Hello"
        assertEquals(1, frames.size());
        assertEquals(OpCode.TEXT, frames.get(0).opcode());
        assertTrue(frames.get(0).fin());
        assertEquals("Hello", new String(frames.get(0).payload(), StandardCharsets.UTF_8));
    }

    @Test
    void rfcMaskedHello() {
        List<Frame> frames = parse(Role.SERVER, Hex.bytes("81 85 37 fa 21 3d 7f 9f 4d 51 58")); // masked text "Hello"
        assertEquals("Hello", new String(frames.get(0).payload(), StandardCharsets.UTF_8));
        assertTrue(frames.get(0).header().masked());
    }

    @Test
    void rfcFragmentedUnmaskedText() {
        List<Frame> frames = parse(Role.CLIENT, Hex.bytes("01 03 48 65 6c 80 02 6c 6f")); // "Hel" + "lo"
        assertEquals(2, frames.size());
        assertFalse(frames.get(0).fin());
        assertEquals(OpCode.CONTINUATION, frames.get(1).opcode());
        assertTrue(frames.get(1).fin());
    }

    @Test
    void rfcPingAndPong() {
        assertEquals(OpCode.PING, parse(Role.CLIENT, Hex.bytes("89 05 48 65 6c 6c 6f")).get(0).opcode()); // unmasked ping "Hello"
        Frame pong = parse(Role.SERVER, Hex.bytes("8a 85 37 fa 21 3d 7f 9f 4d 51 58")).get(0); // masked pong "Hello"
        assertEquals(OpCode.PONG, pong.opcode());
        assertEquals("Hello", new String(pong.payload(), StandardCharsets.UTF_8));
    }

    @Test
    void rfc256ByteAnd64KiBBinaryLengths() {
        byte[] b256 = new byte[4 + 256];
        System.arraycopy(Hex.bytes("82 7E 01 00"), 0, b256, 0, 4); // 16-bit length 256
        assertEquals(256, parse(Role.CLIENT, b256).get(0).payload().length);
        byte[] b64k = new byte[10 + 65536];
        System.arraycopy(Hex.bytes("82 7F 00 00 00 00 00 01 00 00"), 0, b64k, 0, 10); // 64-bit length 65536
        assertEquals(65536, parse(Role.CLIENT, b64k).get(0).payload().length);
    }

    @Test
    void rejectsReservedDataAndControlOpcodes() {
        for (int op : new int[] {3, 4, 5, 6, 7, 11, 12, 13, 14, 15}) {
            String hex = String.format("%02x 80 00 00 00 00", 0x80 | op);
            CloseException e = failure(Role.SERVER, hex);
            assertEquals(1002, e.code());
            assertTrue(e.getMessage().contains("reserved opcode"), e.getMessage());
        }
    }

    @Test
    void rejectsEachReservedBitWithoutExtension() {
        for (int rsv : new int[] {0x40, 0x20, 0x10}) {
            assertEquals(1002, failure(Role.SERVER, String.format("%02x 80 00 00 00 00", 0x81 | rsv)).code());
        }
    }

    @Test
    void allowsReservedBitsAnExtensionClaimed() {
        FrameCollector frames = new FrameCollector();
        new FrameParser(Role.SERVER, 100, 0x4).parse(ByteBuffer.wrap(Hex.bytes("c1 80 00 00 00 00")), frames);
        assertEquals(4, frames.drain().get(0).header().rsv());
    }

    @Test
    void rejectsFragmentedControlFrames() {
        CloseException e = failure(Role.SERVER, "09 80 00 00 00 00"); // ping without FIN
        assertEquals(1002, e.code());
        assertEquals("control frames must not be fragmented", e.getMessage());
    }

    @Test
    void rejectsControlFramesOver125Bytes() {
        assertEquals(1002, failure(Role.SERVER, "89 fe 00 7e").code()); // ping, 126 bytes
    }

    @Test
    void serverRejectsUnmaskedClientFrames() {
        CloseException e = failure(Role.SERVER, "81 05 48 65 6c 6c 6f");
        assertEquals(1002, e.code());
        assertEquals("client frames must be masked", e.getMessage());
    }

    @Test
    void clientRejectsMaskedServerFrames() {
        assertEquals(1002, failure(Role.CLIENT, "81 85 37 fa 21 3d 7f 9f 4d 51 58").code());
    }

    @Test
    void rejects64BitLengthWithTopBitSet() {
        assertEquals(1002, failure(Role.CLIENT, "82 7f 80 00 00 00 00 00 00 01").code());
    }

    @Test
    void rejectsFrameOverTheLimitFromTheHeaderAlone() {
        FrameParser parser = new FrameParser(Role.CLIENT, 1000);
        CloseException e = assertThrows(CloseException.class,
                () -> parser.parse(ByteBuffer.wrap(Hex.bytes("82 7e 03 e9")), new FrameCollector())); // 1001 bytes
        assertEquals(1009, e.code());
    }

    @Test
    void refusesInputAfterFailing() {
        FrameParser parser = new FrameParser(Role.SERVER, 100);
        assertThrows(ProtocolException.class, () -> parser.parse(ByteBuffer.wrap(Hex.bytes("83 80")), new FrameCollector()));
        assertThrows(IllegalStateException.class, () -> parser.parse(ByteBuffer.wrap(Hex.bytes("81 80")), new FrameCollector()));
    }

    @Test
    void ignoresEverythingAfterAClose() {
        FrameParser parser = new FrameParser(Role.CLIENT, 100);
        FrameCollector frames = new FrameCollector();
        ByteBuffer in = ByteBuffer.wrap(Hex.bytes("88 02 03 e8 ff ff ff 81 05")); // close 1000, then garbage
        parser.parse(in, frames);
        assertEquals(1, frames.drain().size());
        assertTrue(parser.closeReceived());
        assertFalse(in.hasRemaining());
    }

    @Test
    void detectsProblemsFromTheFirstTwoBytes() {
        // fail fast: a reserved opcode is reported before the rest of the header arrives
        FrameParser parser = new FrameParser(Role.SERVER, 100);
        assertThrows(ProtocolException.class, () -> parser.parse(ByteBuffer.wrap(Hex.bytes("83 fe")), new FrameCollector()));
    }

    @Test
    void atFrameBoundaryTracksPartialInput() {
        FrameParser parser = new FrameParser(Role.CLIENT, 100);
        FrameCollector frames = new FrameCollector();
        assertTrue(parser.atFrameBoundary());
        parser.parse(ByteBuffer.wrap(Hex.bytes("81")), frames);
        assertFalse(parser.atFrameBoundary());
        parser.parse(ByteBuffer.wrap(Hex.bytes("01 41")), frames);
        assertTrue(parser.atFrameBoundary());
    }

    @Test
    void readsDirectBuffers() {
        byte[] hello = Hex.bytes("81 85 37 fa 21 3d 7f 9f 4d 51 58");
        ByteBuffer direct = ByteBuffer.allocateDirect(hello.length).put(hello).flip();
        FrameCollector frames = new FrameCollector();
        new FrameParser(Role.SERVER, 100).parse(direct, frames);
        assertArrayEquals("Hello".getBytes(StandardCharsets.US_ASCII), frames.drain().get(0).payload());
    }
}
