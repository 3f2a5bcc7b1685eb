package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import wsjava.testing.Hex;

class Utf8ValidatorTest {

    private static boolean valid(String hex) {
        byte[] b = Hex.bytes(hex);
        return Utf8Validator.isValid(b, 0, b.length);
    }

    @Test
    void acceptsValidText() {
        assertTrue(valid(""));
        assertTrue(valid("48 65 6c 6c 6f"));                 // Hello
        assertTrue(valid("ce ba e1 bd b9 cf 83 ce bc ce b5")); // κόσμε (Kuhn 1)
        assertTrue(valid("f4 8f bf bf"));                    // U+10FFFF, the last code point
        assertTrue(valid("ef bf bf"));                       // U+FFFF
        assertTrue(valid("ed 9f bf"));                       // U+D7FF, just below the surrogates
    }

    @Test
    void rejectsKuhnStressVectors() {
        assertFalse(valid("ed a0 80"), "surrogate U+D800");
        assertFalse(valid("ed bf bf"), "surrogate U+DFFF");
        assertFalse(valid("c0 af"), "overlong '/' in 2 bytes");
        assertFalse(valid("e0 80 af"), "overlong '/' in 3 bytes");
        assertFalse(valid("f0 80 80 af"), "overlong '/' in 4 bytes");
        assertFalse(valid("c1 bf"), "overlong U+007F");
        assertFalse(valid("f4 90 80 80"), "U+110000, past the last code point");
        assertFalse(valid("f5 80 80 80"), "lead byte past F4");
        assertFalse(valid("80"), "stray continuation");
        assertFalse(valid("bf"), "stray continuation");
        assertFalse(valid("fe"), "FE never appears");
        assertFalse(valid("ff"), "FF never appears");
        assertFalse(valid("e1 80"), "truncated sequence");
        assertFalse(valid("ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64"), "κόσμε + surrogate + edited");
    }

    @Test
    void failsAtTheFirstBadByteNotAtTheEnd() {
        Utf8Validator v = new Utf8Validator();
        v.feed(Hex.bytes("48 65"), 0, 2);
        assertThrows(BadPayloadException.class, () -> v.feed(Hex.bytes("f4 90"), 0, 2));
    }

    @Test
    void splitsAnywhereGiveTheSameVerdict() {
        byte[] text = "Grüße, 世界! 😀 κόσμε".getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= text.length; cut++) {
            Utf8Validator v = new Utf8Validator();
            v.feed(text, 0, cut);
            v.feed(text, cut, text.length - cut);
            v.finish();
        }
    }

    @Test
    void agreesWithTheJdkDecoderOnRandomBytes() {
        Random random = new Random(11);
        for (int trial = 0; trial < 20_000; trial++) {
            byte[] b = new byte[random.nextInt(8)];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) (random.nextBoolean() ? 0x80 + random.nextInt(0x80) : random.nextInt(256));
            }
            boolean jdk;
            try {
                StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(b));
                jdk = true;
            } catch (java.nio.charset.CharacterCodingException e) {
                jdk = false;
            }
            assertEquals(jdk, Utf8Validator.isValid(b, 0, b.length), java.util.Arrays.toString(b));
        }
    }
}
