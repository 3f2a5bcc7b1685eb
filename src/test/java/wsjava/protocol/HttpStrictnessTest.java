package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Request heads that RFC 9110/9112 and RFC 3986 say to refuse, and the odd ones they say to accept. */
class HttpStrictnessTest {

    private static HttpRequest parse(String head) {
        HttpRequest r = new HttpRequestParser(8192).parse(ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1)));
        assertTrue(r != null, "request head incomplete");
        return r;
    }

    private static HandshakeException refused(String head) {
        return assertThrows(HandshakeException.class, () -> parse(head));
    }

    @Test
    void hostMustBeThereOnceAndNotEmpty() {
        assertEquals("more than one Host header", refused("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n").getMessage());
        assertEquals(400, refused("GET / HTTP/1.1\r\nHost:\r\n\r\n").status());
        assertEquals(400, refused("GET / HTTP/1.1\r\nHost: a, b\r\n\r\n").status());
        assertEquals("missing Host header", refused("GET / HTTP/1.1\r\n\r\n").getMessage());
        assertEquals("/", parse("GET / HTTP/1.0\r\n\r\n").path(), "HTTP/1.0 may leave Host out");
    }

    @Test
    void bareLineFeedsNulsAndOtherControlsInAHeadGet400() {
        assertEquals(400, refused("GET / HTTP/1.1\r\nHost: a\r\nX-A: one\nX-B: two\r\n\r\n").status());
        assertEquals(400, refused("GET / HTTP/1.1\r\nHost: a\r\nX-A: one\rtwo\r\n\r\n").status());
        assertEquals(400, refused("GET / HTTP/1.1\r\nHost: a\r\nX-A: nul\0here\r\n\r\n").status());
        assertEquals(400, refused("GET /\u0001 HTTP/1.1\r\nHost: a\r\n\r\n").status());
        assertEquals("a\tb", parse("GET / HTTP/1.1\r\nHost: a\r\nX-A: a\tb\r\n\r\n").header("X-A"), "a tab is allowed");
    }

    @Test
    void aHeadWithOnlyBareLineFeedsGets400AsItArrivesNotAfterTheDeadline() {
        HttpRequestParser parser = new HttpRequestParser(8192);
        ByteBuffer firstLine = ByteBuffer.wrap("GET / HTTP/1.1\n".getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(400, assertThrows(HandshakeException.class, () -> parser.parse(firstLine)).status(),
                "no CR LF CR LF will ever come: waiting for it leaves the client unanswered");
        assertEquals(400, refused("GET / HTTP/1.1\nHost: a\n\n").status());
        assertEquals(400, refused("GET / HTTP/1.1\r\r\n\r\n").status(), "a bare CR too");
    }

    @Test
    void absoluteFormTargetsAreAccepted() {
        HttpRequest r = parse("GET http://example.com:8080/chat?token=x HTTP/1.1\r\nHost: example.com:8080\r\n\r\n");
        assertEquals("/chat", r.path());
        assertEquals("token=x", r.query());
        assertEquals("/", parse("GET HTTP://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n").path());
        assertEquals("a=1", parse("GET http://example.com?a=1 HTTP/1.1\r\nHost: example.com\r\n\r\n").query());
        assertEquals(400, refused("GET example.com/chat HTTP/1.1\r\nHost: a\r\n\r\n").status());
        assertEquals(400, refused("GET * HTTP/1.1\r\nHost: a\r\n\r\n").status());
    }

    @Test
    void queriesArePercentDecodedByRfc3986() {
        HttpRequest r = parse("GET /?token=a+b%2Bc%20d&n%61me=%C3%A9 HTTP/1.1\r\nHost: a\r\n\r\n");
        assertEquals("a+b+c d", r.queryParameter("token"), "'+' stays a plus: only forms make it a space");
        assertEquals("\u00e9", r.queryParameter("name"), "names are decoded too, values as UTF-8");
        assertEquals(400, refused("GET /?token=%zz HTTP/1.1\r\nHost: a\r\n\r\n").status());
        assertEquals(400, refused("GET /?token=%a HTTP/1.1\r\nHost: a\r\n\r\n").status());
        assertEquals(400, refused("GET /?token=%\u0661\u0662 HTTP/1.1\r\nHost: a\r\n\r\n").status(), "only ASCII hex digits");
        HttpRequest badUtf8 = parse("GET /?token=%C3%28 HTTP/1.1\r\nHost: a\r\n\r\n");
        assertEquals(400, assertThrows(HandshakeException.class, () -> badUtf8.queryParameter("token")).status());
    }

    @Test
    void onlyWebSocketUpgradesAreUpgradeRequests() {
        assertFalse(Handshake.isUpgradeRequest(parse("GET / HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n")),
                "a plain GET offering h2c is plain HTTP");
        assertTrue(Handshake.isUpgradeRequest(parse("GET / HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nSec-WebSocket-Key: x\r\n\r\n")),
                "a WebSocket attempt with the wrong Upgrade still gets told what is wrong");
        assertTrue(Handshake.isUpgradeRequest(parse("GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\r\n")));
    }

    @Test
    void everyErrorResponseSaysNosniffAndHeadHasNoBody() {
        String text = new String(HttpResponses.plain(404, "no such page: /<script>\n", java.util.Map.of()), StandardCharsets.UTF_8);
        assertTrue(text.contains("\r\nX-Content-Type-Options: nosniff\r\n"));
        String head = new String(HttpResponses.plain(404, "12345\n", java.util.Map.of(), false), StandardCharsets.UTF_8);
        assertTrue(head.endsWith("\r\n\r\n") && head.contains("Content-Length: 6\r\n"), head);
    }
}
