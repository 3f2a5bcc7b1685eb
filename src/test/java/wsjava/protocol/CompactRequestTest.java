package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A folded request answers every question the parsed one answered. */
class CompactRequestTest {

    private static final String HEAD = "GET http://example.com/chat?room=a%20b&x HTTP/1.1\r\n"
            + "Host: example.com\r\n"
            + "Upgrade: websocket\r\n"
            + "X-Empty:\r\n"
            + "Cookie: a=1\r\n"
            + "Origin: http://example.com:8080\r\n"
            + "cookie: b=2; c=x:y\r\n"
            + "\r\n";

    private static HttpRequest parsed() {
        return new HttpRequestParser(64 * 1024).parse(ByteBuffer.wrap(HEAD.getBytes(StandardCharsets.ISO_8859_1)));
    }

    @Test
    void unfoldingGivesBackTheRequestLineAndEveryHeaderInOrder() {
        HttpRequest original = parsed();
        HttpRequest unfolded = CompactRequest.of(original).unfold();
        assertEquals(original.method(), unfolded.method());
        assertEquals(original.target(), unfolded.target());
        assertEquals(original.version(), unfolded.version());
        assertEquals(original.path(), unfolded.path());
        assertEquals(original.query(), unfolded.query());
        assertEquals(original.queryParameter("room"), unfolded.queryParameter("room"));
        assertEquals(original.headers(), unfolded.headers());
        assertEquals(List.copyOf(original.headers().keySet()), List.copyOf(unfolded.headers().keySet()), "arrival order");
    }

    @Test
    void headersStayCaseInsensitiveRepeatedAndEmptyValued() {
        HttpRequest unfolded = CompactRequest.of(parsed()).unfold();
        assertEquals(List.of("a=1", "b=2; c=x:y"), unfolded.headerValues("COOKIE"));
        assertEquals("a=1, b=2; c=x:y", unfolded.header("Cookie"));
        assertEquals("", unfolded.header("x-empty"));
        assertEquals("http://example.com:8080", unfolded.header("origin"), "a colon inside a value stays");
        assertNull(unfolded.header("Sec-WebSocket-Protocol"));
        assertTrue(unfolded.headerHasToken("upgrade", "WebSocket"));
    }

    @Test
    void theFoldedFormIsNoLargerThanTheHeadOnTheWire() {
        assertTrue(CompactRequest.of(parsed()).foldedBytes() <= HEAD.length(),
                CompactRequest.of(parsed()).foldedBytes() + " bytes folded for a head of " + HEAD.length());
    }

    @Test
    void pathAndQueryComeFromTheRequestLineAloneAsTheParsedRequestGivesThem() {
        for (String target : new String[] {"/", "/chat", "/chat?room=a%20b&x", "/?", "/a?b?c", "http://example.com/chat?room=1",
                "http://example.com", "/topics/news"}) {
            String head = "GET " + target + " HTTP/1.1\r\nHost: example.com\r\nX-Path: /elsewhere?q\r\n\r\n";
            HttpRequest original = new HttpRequestParser(64 * 1024).parse(ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1)));
            CompactRequest folded = CompactRequest.of(original);
            assertEquals(original.path(), folded.path(), target);
            assertEquals(original.query(), folded.query(), target);
        }
    }
}
