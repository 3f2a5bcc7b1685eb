package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import wsjava.testing.Hex;

class FrameWriterTest {

    private final FrameWriter server = new FrameWriter(Role.SERVER, 1 << 20);

    @Test
    void serverTextMatchesRfcVector() {
        assertArrayEquals(Hex.bytes("81 05 48 65 6c 6c 6f"), server.text("Hello")); // unmasked text "Hello"
    }

    @Test
    void aHeaderPutInABufferIsTheHeaderWrittenInAnArray() {
        for (int length : new int[] {0, 1, 125, 126, 127, 2048, 0xFFFF, 0x10000, 3 << 20}) {
            byte[] expected = new byte[FrameWriter.headerSize(length, false)];
            FrameWriter.writeHeader(expected, 0, true, OpCode.BINARY, length, false, 0);
            ByteBuffer direct = ByteBuffer.allocateDirect(16);
            FrameWriter.putHeader(direct, true, OpCode.BINARY, length);
            byte[] put = new byte[direct.flip().remaining()];
            direct.get(put);
            assertArrayEquals(expected, put, "length " + length);
        }
    }

    @Test
    void usesTheMinimalLengthEncoding() {
        assertEquals(2 + 125, server.binary(new byte[125]).length);
        assertEquals(4 + 126, server.binary(new byte[126]).length);
        assertEquals(4 + 65535, server.binary(new byte[65535]).length);
        assertEquals(10 + 65536, server.binary(new byte[65536]).length);
        assertArrayEquals(Hex.bytes("82 7e 00 7e"), java.util.Arrays.copyOf(server.binary(new byte[126]), 4));
    }

    @Test
    void serverFramesAreNeverMasked() {
        byte[] frame = server.binary(new byte[300]);
        assertEquals(0, frame[1] & 0x80);
    }

    @Test
    void clientFramesAreMaskedWithAKeyAndRoundTrip() {
        FrameWriter client = new FrameWriter(Role.CLIENT, 1 << 20, new Random(7));
        byte[] payload = "Hello, masked world".getBytes(StandardCharsets.UTF_8);
        byte[] frame = client.binary(payload);
        assertTrue((frame[1] & 0x80) != 0);
        FrameCollector frames = new FrameCollector();
        new FrameParser(Role.SERVER, 100).parse(ByteBuffer.wrap(frame), frames);
        assertArrayEquals(payload, frames.drain().get(0).payload());
    }

    @Test
    void largeMessagesAreFragmented() {
        FrameWriter small = new FrameWriter(Role.SERVER, 100);
        byte[] payload = new byte[250];
        new Random(3).nextBytes(payload);
        FrameCollector frames = new FrameCollector();
        new FrameParser(Role.CLIENT, 1000).parse(ByteBuffer.wrap(small.binary(payload)), frames);
        List<Frame> list = frames.drain();
        assertEquals(3, list.size());
        assertEquals(OpCode.BINARY, list.get(0).opcode());
        assertEquals(OpCode.CONTINUATION, list.get(1).opcode());
        assertEquals(OpCode.CONTINUATION, list.get(2).opcode());
        assertEquals(false, list.get(1).fin());
        assertEquals(true, list.get(2).fin());
        assertEquals(50, list.get(2).payload().length);
    }

    @Test
    void emptyMessageIsOneFrame() {
        assertArrayEquals(Hex.bytes("82 00"), server.binary(new byte[0]));
    }

    @Test
    void closeFrameCarriesCodeAndReason() {
        assertArrayEquals(Hex.bytes("88 04 03 e8 6f 6b"), server.close(1000, "ok"));
    }

    @Test
    void closeReasonIsCutAtACharacterBoundary() {
        String reason = "é".repeat(100);    // 200 bytes of UTF-8
        byte[] payload = CloseFrames.payload(1000, reason);
        assertEquals(2 + 122, payload.length);   // 61 whole characters, not 61.5
        assertTrue(Utf8Validator.isValid(payload, 2, payload.length - 2));
    }

    @Test
    void controlFramesRejectOversizedPayloads() {
        assertThrows(IllegalArgumentException.class, () -> server.control(OpCode.PING, new byte[126]));
        assertThrows(IllegalArgumentException.class, () -> server.control(OpCode.TEXT, new byte[1]));
    }

    @Test
    void writerAndParserRoundTripEveryBoundaryLength() {
        for (Role role : Role.values()) {
            FrameWriter writer = new FrameWriter(role, 1 << 20, new Random(5));
            Role reader = role == Role.CLIENT ? Role.SERVER : Role.CLIENT;
            for (int len : new int[] {0, 1, 125, 126, 127, 128, 65535, 65536, 100_000}) {
                byte[] payload = new byte[len];
                new Random(len).nextBytes(payload);
                FrameCollector frames = new FrameCollector();
                new FrameParser(reader, 1 << 20).parse(ByteBuffer.wrap(writer.binary(payload)), frames);
                assertArrayEquals(payload, frames.drain().get(0).payload(), role + " " + len);
            }
        }
    }
}
