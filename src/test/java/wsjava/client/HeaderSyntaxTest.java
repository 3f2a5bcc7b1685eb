package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A CR LF in a configured header or subprotocol used to reach the request as written, so
 * {@code header("X", "a\r\nAuthorization: Bearer forged")} made the server see a forged
 * Authorization header. Names and subprotocols must be tokens, values free of control characters
 * but tab, checked when configured.
 */
@Timeout(10)
class HeaderSyntaxTest {

    @Test
    void aCrLfInAHeaderValueIsRefusedWhenConfigured() {
        ClientConfig config = new ClientConfig();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> config.header("X-Note", "a\r\nAuthorization: Bearer forged"));
        assertTrue(e.getMessage().contains("0x0D"), e.getMessage());
        for (String bad : new String[] {"a\nb", "a\rb", "a\u0000b", "a\u007Fb", "a\u001Bb", " leading", "trailing\t"}) {
            assertThrows(IllegalArgumentException.class, () -> config.header("X-Note", bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> config.header("X-Note", null));
        assertTrue(config.headers().isEmpty(), "nothing refused was kept");
    }

    @Test
    void aHeaderNameMustBeAToken() {
        ClientConfig config = new ClientConfig();
        for (String bad : new String[] {"", "X Note", "X:Note", "X\r\nAuthorization", "X\u0000", "Ünicode", "(x)", "a/b"}) {
            assertThrows(IllegalArgumentException.class, () -> config.header(bad, "v"), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> config.header(null, "v"));
    }

    @Test
    void aSubprotocolMustBeAToken() {
        ClientConfig config = new ClientConfig();
        for (String bad : new String[] {"", "chat, admin", "chat\r\nAuthorization: Bearer forged", "a b", "a\u0000", "\"q\""}) {
            assertThrows(IllegalArgumentException.class, () -> config.addSubprotocol(bad), bad);
        }
        assertTrue(config.subprotocols().isEmpty());
    }

    @Test
    void ordinaryHeadersAndSubprotocolsAreKept() {
        ClientConfig config = new ClientConfig()
                .header("Authorization", "Bearer abc.def-ghi")
                .header("X-Empty", "")
                .header("X-Spaced", "a b\tc, d=\"e\"")
                .header("X-Latin", "café")
                .addSubprotocol("wamp.2.json")
                .addSubprotocol("v1|x~y");
        assertEquals(Map.of("Authorization", "Bearer abc.def-ghi", "X-Empty", "", "X-Spaced", "a b\tc, d=\"e\"", "X-Latin", "café"),
                config.headers());
        assertEquals(List.of("wamp.2.json", "v1|x~y"), config.subprotocols());
    }
}
