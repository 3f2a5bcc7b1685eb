package wsjava.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Percent-decoding of URI components by RFC 3986 section 2.1: {@code %XX} becomes that byte and
 * the bytes are read as UTF-8. A {@code '+'} stays a plus sign (it means a space only in HTML form
 * bodies), so a token like {@code a+b} matches itself. A bad escape or bad UTF-8 is a 400, never an
 * exception from deep inside the handshake.
 */
public final class PercentDecoding {

    private PercentDecoding() {
    }

    /** Decodes a component of a request target (whose characters are the raw bytes, read as ISO-8859-1). */
    public static String decode(String component) {
        if (component.indexOf('%') < 0) {
            return component;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(component.length());
        for (int i = 0; i < component.length(); i++) {
            char c = component.charAt(i);
            if (c != '%') {
                bytes.write(c);     // the raw byte the request carried
                continue;
            }
            if (!isEscapeAt(component, i)) {
                throw new HandshakeException(400, "malformed percent-encoding at character " + (i + 1));
            }
            bytes.write(hex(component.charAt(i + 1)) << 4 | hex(component.charAt(i + 2)));
            i += 2;
        }
        byte[] decoded = bytes.toByteArray();
        if (!Utf8Validator.isValid(decoded, 0, decoded.length)) {
            throw new HandshakeException(400, "percent-encoded query is not UTF-8");
        }
        return new String(decoded, StandardCharsets.UTF_8);
    }

    /** Throws 400 unless every '%' in {@code text} starts an escape of two hex digits. */
    public static void requireWellFormed(String text) {
        for (int i = text.indexOf('%'); i >= 0; i = text.indexOf('%', i + 1)) {
            if (!isEscapeAt(text, i)) {
                throw new HandshakeException(400, "malformed percent-encoding at character " + (i + 1));
            }
        }
    }

    private static boolean isEscapeAt(String text, int percent) {
        return percent + 2 < text.length() && hex(text.charAt(percent + 1)) >= 0 && hex(text.charAt(percent + 2)) >= 0;
    }

    /** The value of an ASCII hex digit, or -1 (Character.digit would also take other scripts' digits). */
    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char lower = (char) (c | 0x20);
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }
}
