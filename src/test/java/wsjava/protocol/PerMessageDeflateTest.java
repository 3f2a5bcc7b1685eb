package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import wsjava.testing.PeerDeflate;

/** The codec half of permessage-deflate: header parsing, negotiation, inflating within limits, deflating. */
class PerMessageDeflateTest {

    private static List<ExtensionOffer> offers(String... lines) {
        return ExtensionOffer.parse(List.of(lines));
    }

    @Test
    void parsesOffersParametersAndQuotedValuesAcrossHeaderLines() {
        List<ExtensionOffer> o = offers("permessage-deflate; client_max_window_bits, , foo ;a=\"1\" ; b = 2", "bar");
        assertEquals(3, o.size());
        assertEquals("permessage-deflate", o.get(0).name());
        assertTrue(o.get(0).parameters().containsKey("client_max_window_bits"));
        assertNull(o.get(0).parameters().get("client_max_window_bits"));
        assertEquals("1", o.get(1).parameters().get("a"));
        assertEquals("2", o.get(1).parameters().get("b"));
        assertEquals("bar", o.get(2).name());
        assertTrue(offers("x; a; a").get(0).repeatsParameter());
    }

    @Test
    void aParameterRepeatedInAnotherLetterCaseDeclinesThatOfferAndTheNextIsTaken() {
        assertTrue(offers("permessage-deflate; client_no_context_takeover; CLIENT_NO_CONTEXT_TAKEOVER").get(0).repeatsParameter());
        assertTrue(offers("x; Server_Max_Window_Bits=15; server_max_window_bits=15").get(0).repeatsParameter());
        assertFalse(offers("x; a; b").get(0).repeatsParameter());
        assertNull(DeflateAgreement.negotiate(offers("permessage-deflate; client_no_context_takeover; CLIENT_NO_CONTEXT_TAKEOVER"), true));
        DeflateAgreement next = DeflateAgreement.negotiate(
                offers("permessage-deflate; client_no_context_takeover; CLIENT_NO_CONTEXT_TAKEOVER, permessage-deflate; server_no_context_takeover"), true);
        assertEquals("permessage-deflate; server_no_context_takeover", next.responseHeader());
    }

    @Test
    void badSyntaxIs400WithTheReason() {
        for (String bad : new String[] {"", ",", "a;", "a;=1", "a; b=", "a; b=\"c d\"", "a; b=\"c", "a b", "a; b=1 c", "a\u00e9"}) {
            HandshakeException e = assertThrows(HandshakeException.class, () -> offers(bad), bad);
            assertEquals(400, e.status(), bad);
            assertTrue(e.getMessage().contains("Sec-WebSocket-Extensions"), e.getMessage());
        }
    }

    @Test
    void negotiationAnswersWithWhatWeUseAndDeclinesWhatWeCannotHonour() {
        assertEquals("permessage-deflate", DeflateAgreement.negotiate(offers("permessage-deflate; client_max_window_bits"), true).responseHeader());
        assertEquals("permessage-deflate; server_no_context_takeover; client_no_context_takeover",
                DeflateAgreement.negotiate(offers("permessage-deflate"), false).responseHeader());
        assertEquals("permessage-deflate; server_max_window_bits=15",
                DeflateAgreement.negotiate(offers("permessage-deflate; server_max_window_bits=15"), true).responseHeader());
        assertNull(DeflateAgreement.negotiate(offers("permessage-deflate; server_max_window_bits=12"), true));
        assertNull(DeflateAgreement.negotiate(offers("permessage-deflate; client_max_window_bits=7"), true));
        assertNull(DeflateAgreement.negotiate(offers("permessage-deflate; mystery"), true));
        DeflateAgreement second = DeflateAgreement.negotiate(offers("permessage-deflate; server_max_window_bits=8, permessage-deflate; server_no_context_takeover"), true);
        assertTrue(second.serverNoContextTakeover());
        assertFalse(second.clientNoContextTakeover());
    }

    @Test
    void aBombStopsAtTheLimitWithNoMoreThanTheLimitBuffered() {
        int limit = 1 << 20;
        MessageInflater inflater = new MessageInflater(false);
        MessageAssembler assembler = new MessageAssembler(new Recorder(), limit, inflater);
        byte[] bomb = PeerDeflate.bomb(64 << 20);
        FrameWriter writer = new FrameWriter(Role.SERVER, 1 << 30);
        FrameParser parser = new FrameParser(Role.CLIENT, limit, DeflateAgreement.RSV);
        MessageTooLargeException e = assertThrows(MessageTooLargeException.class,
                () -> parser.parse(ByteBuffer.wrap(writer.message(OpCode.BINARY, bomb, 0, bomb.length, true)), assembler));
        assertEquals(CloseCodes.MESSAGE_TOO_BIG, e.code());
        assertTrue(bomb.length < 128 * 1024, "the bomb is small: " + bomb.length);
        assertTrue(assembler.bufferCapacity() <= limit, "buffered " + assembler.bufferCapacity());
        inflater.release();
    }

    @Test
    void roundTripsWithAndWithoutContextTakeoverAndFreesStreamsWhenAgreed() throws Exception {
        for (boolean noTakeover : new boolean[] {false, true}) {
            MessageDeflater deflater = new MessageDeflater(6, noTakeover);
            PeerDeflate peer = new PeerDeflate(false, noTakeover);
            byte[] message = new byte[4000];      // random letters: little to gain inside one message, all from the one before
            java.util.Random random = new java.util.Random(7);
            for (int i = 0; i < message.length; i++) {
                message[i] = (byte) ('a' + random.nextInt(26));
            }
            byte[] first = deflater.compress(message, 0, message.length);
            byte[] second = deflater.compress(message, 0, message.length);
            assertArrayEquals(message, peer.inflate(first));
            assertArrayEquals(message, peer.inflate(second));
            if (noTakeover) {
                assertArrayEquals(first, second, "each message compressed afresh");
            } else {
                assertTrue(second.length < first.length / 4, "the second refers back to the first: " + second.length + " vs " + first.length);
            }
            deflater.release();
        }
        Recorder got = new Recorder();
        MessageInflater inflater = new MessageInflater(true);
        MessageAssembler assembler = new MessageAssembler(got, 1 << 20, inflater);
        byte[] z = new PeerDeflate(true, false).compress("hello, kernel".getBytes(StandardCharsets.UTF_8));
        new FrameParser(Role.CLIENT, 1 << 20, DeflateAgreement.RSV).parse(
                ByteBuffer.wrap(new FrameWriter(Role.SERVER, 4).message(OpCode.TEXT, z, 0, z.length, true)), assembler);
        assertEquals(List.of("hello, kernel"), got.texts);
        assertFalse(inflater.holdsStream(), "without context takeover the zlib stream is freed after the message");
    }

    @Test
    void rsv1IsRefusedWithoutTheExtensionAndOnControlAndContinuationFrames() {
        FrameWriter writer = new FrameWriter(Role.SERVER, 1 << 20);
        byte[] ping = writer.control(OpCode.PING, new byte[1]);
        ping[0] |= FrameWriter.RSV1;
        assertEquals(CloseCodes.PROTOCOL_ERROR, assertThrows(CloseException.class, () -> new FrameParser(Role.CLIENT, 1 << 20, DeflateAgreement.RSV)
                .parse(ByteBuffer.wrap(ping), new MessageAssembler(new Recorder(), 1 << 20, new MessageInflater(false)))).code());
        byte[] text = writer.message(OpCode.TEXT, new byte[] {0}, 0, 1, true);
        assertEquals(CloseCodes.PROTOCOL_ERROR, assertThrows(CloseException.class, () -> new FrameParser(Role.CLIENT, 1 << 20)
                .parse(ByteBuffer.wrap(text), new MessageAssembler(new Recorder(), 1 << 20))).code());
    }

    private static final class Recorder implements MessageHandler {
        final List<String> texts = new ArrayList<>();
        @Override public void onText(String text) { texts.add(text); }
        @Override public void onBinary(byte[] data) { }
        @Override public void onPing(byte[] payload) { }
        @Override public void onPong(byte[] payload) { }
        @Override public void onClose(int code, String reason) { }
    }
}
