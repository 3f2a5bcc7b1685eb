package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class HandshakeTest {

    private static final String GOOD = "GET /chat?token=s3cret HTTP/1.1\r\n"
            + "Host: server.example.com\r\n"
            + "Upgrade: WebSocket\r\n"
            + "Connection: keep-alive, Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Origin: http://example.com\r\n"
            + "Sec-WebSocket-Protocol: chat, superchat\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n";

    private static HttpRequest request(String text) {
        HttpRequest r = new HttpRequestParser(8192).parse(ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1)));
        assertTrue(r != null, "request head incomplete");
        return r;
    }

    private static int status(String text) {
        return assertThrows(HandshakeException.class, () -> Handshake.accept(request(text), List.of())).status();
    }

    @Test
    void acceptKeyMatchesRfcSection13() {
        assertEquals("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", Handshake.acceptKey("dGhlIHNhbXBsZSBub25jZQ=="));
    }

    @Test
    void acceptsAValidRequestCaseInsensitively() {
        HttpRequest r = request(GOOD);
        Handshake.HandshakeResponse response = Handshake.accept(r, List.of("superchat", "chat"));
        String text = new String(response.bytes(), StandardCharsets.ISO_8859_1);
        assertTrue(text.startsWith("HTTP/1.1 101 Switching Protocols\r\n"));
        assertTrue(text.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"));
        assertTrue(text.contains("Sec-WebSocket-Protocol: superchat\r\n"));
        assertEquals("superchat", response.subprotocol());
        assertTrue(text.endsWith("\r\n\r\n"));
    }

    @Test
    void exposesPathQueryAndHeaders() {
        HttpRequest r = request(GOOD);
        assertEquals("/chat", r.path());
        assertEquals("token=s3cret", r.query());
        assertEquals("s3cret", r.queryParameter("token"));
        assertEquals("http://example.com", r.header("origin"));
        assertEquals("http://example.com", r.headers().get("origin"));
    }

    @Test
    void noCommonSubprotocolMeansNone() {
        assertNull(Handshake.accept(request(GOOD), List.of("mqtt")).subprotocol());
    }

    @Test
    void bytesMayArriveInAnyPieces() {
        byte[] bytes = (GOOD + "\u0081\u0080").getBytes(StandardCharsets.ISO_8859_1);
        HttpRequestParser parser = new HttpRequestParser(8192);
        HttpRequest r = null;
        ByteBuffer in = null;
        for (int i = 0; i < bytes.length && r == null; i++) {
            in = ByteBuffer.wrap(bytes, i, 1);
            r = parser.parse(in);
        }
        assertEquals("/chat", r.path());
        ByteBuffer rest = ByteBuffer.wrap(bytes, GOOD.length(), 2);
        assertEquals(2, rest.remaining(), "bytes after the head stay for the frame parser");
    }

    @Test
    void leavesBytesAfterTheHeadInTheBuffer() {
        ByteBuffer in = ByteBuffer.wrap((GOOD + "XY").getBytes(StandardCharsets.ISO_8859_1));
        new HttpRequestParser(8192).parse(in);
        assertEquals(2, in.remaining());
    }

    @Test
    void oversizedHeadGets431() {
        String huge = "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(9000) + "\r\n\r\n";
        HandshakeException e = assertThrows(HandshakeException.class,
                () -> new HttpRequestParser(8192).parse(ByteBuffer.wrap(huge.getBytes(StandardCharsets.ISO_8859_1))));
        assertEquals(431, e.status());
        assertTrue(e.toHttpResponseText().startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
    }

    @Test
    void wrongVersionGets426WithTheVersionHeader() {
        HandshakeException e = assertThrows(HandshakeException.class,
                () -> Handshake.accept(request(GOOD.replace("Version: 13", "Version: 8")), List.of()));
        assertEquals(426, e.status());
        assertTrue(e.toHttpResponseText().contains("Sec-WebSocket-Version: 13\r\n"));
        assertEquals(426, status(GOOD.replace("Sec-WebSocket-Version: 13\r\n", "")));
    }

    @Test
    void eachMissingOrBadPartGets400() {
        assertEquals(400, status(GOOD.replace("GET ", "POST ")));
        assertEquals(400, status(GOOD.replace("HTTP/1.1\r\n", "HTTP/1.0\r\n")));
        assertEquals(400, status(GOOD.replace("Host: server.example.com\r\n", "")));
        assertEquals(400, status(GOOD.replace("Upgrade: WebSocket", "Upgrade: h2c")));
        assertEquals(400, status(GOOD.replace("Connection: keep-alive, Upgrade", "Connection: keep-alive")));
        assertEquals(400, status(GOOD.replace("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", "")));
        assertEquals(400, status(GOOD.replace("dGhlIHNhbXBsZSBub25jZQ==", "dGhlIHNhbXBsZQ==")));      // 11 bytes
        assertEquals(400, status(GOOD.replace("dGhlIHNhbXBsZSBub25jZQ==", "!!!!!!!!!!!!!!!!!!!!!!==")));
    }

    @Test
    void malformedHeadsGet400() {
        assertEquals(400, assertThrows(HandshakeException.class, () -> request("GARBAGE\r\n\r\n")).status());
        assertEquals(400, assertThrows(HandshakeException.class, () -> request("GET / HTTP/1.1\r\nNoColon\r\n\r\n")).status());
        assertEquals(400, assertThrows(HandshakeException.class, () -> request("GET / HTTP/1.1\r\n folded: x\r\n\r\n")).status());
    }

    @Test
    void failureResponsesCarryAOneLineReason() {
        HandshakeException e = assertThrows(HandshakeException.class,
                () -> Handshake.accept(request(GOOD.replace("Host: server.example.com\r\n", "")), List.of()));
        assertTrue(e.toHttpResponseText().endsWith("\r\n\r\nmissing Host header\n"));
    }
}
