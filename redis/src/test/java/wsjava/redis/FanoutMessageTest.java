package wsjava.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What travels through Redis: the header that keeps type and origin, and messages from other programs. */
class FanoutMessageTest {

    private static final byte[] ME = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aPublishKeepsItsTypeAndSaysWhoSentIt() {
        FanoutMessage text = FanoutMessage.decode(FanoutMessage.encode(ME, true, "héllo".getBytes(StandardCharsets.UTF_8)));
        assertTrue(text.text);
        assertEquals("héllo", text.textPayload());
        assertTrue(java.util.Arrays.equals(ME, text.origin));
        assertFalse(java.util.Arrays.equals("fedcba9876543210".getBytes(StandardCharsets.US_ASCII), text.origin));
        FanoutMessage binary = FanoutMessage.decode(FanoutMessage.encode(ME, false, new byte[] {1, 2}));
        assertFalse(binary.text);
        assertArrayEquals(new byte[] {1, 2}, binary.payload);
        assertEquals(FanoutMessage.HEADER_BYTES, FanoutMessage.encode(ME, false, new byte[0]).length);
    }

    @Test
    void anotherProgramsMessageIsTextWhenItIsUtf8() {
        FanoutMessage text = FanoutMessage.decode("plain".getBytes(StandardCharsets.UTF_8));
        assertTrue(text.text);
        assertNull(text.origin, "from no server: every server delivers it");
        assertFalse(FanoutMessage.decode(new byte[] {(byte) 0xF5, 1}).text, "short, not UTF-8: binary");
    }

    @Test
    void thePatternEscapesTheGlobCharactersOfThePrefix() {
        assertEquals("wsjava:*", new String(RedisFanout.pattern("wsjava:"), StandardCharsets.UTF_8));
        assertEquals("a\\*b\\?c\\[d\\]\\\\*", new String(RedisFanout.pattern("a*b?c[d]\\"), StandardCharsets.UTF_8));
    }
}
