package wsjava.client;

/**
 * What may go into a request header the client writes (RFC 7230 section 3.2): names and
 * subprotocols are tokens, values hold no control character but tab. Checked when configured, so a
 * CR or LF from an application (or from a WL option) can never add a header of its own.
 */
final class HeaderSyntax {

    private static final String TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

    private HeaderSyntax() {
    }

    /** {@code value} if it is a token, else an {@link IllegalArgumentException} naming {@code what}. */
    static String token(String value, String what) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("a " + what + " must not be empty");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean tchar = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || TOKEN_SYMBOLS.indexOf(c) >= 0;
            if (!tchar) {
                throw new IllegalArgumentException("a " + what + " must be a token (RFC 7230), but \"" + printable(value)
                        + "\" has " + describe(c) + " at " + i);
            }
        }
        return value;
    }

    /** {@code value} if it is a header field value (tab and visible characters, spaces inside), else an {@link IllegalArgumentException}. */
    static String fieldValue(String value, String name) {
        if (value == null) {
            throw new IllegalArgumentException("header " + name + " needs a value");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7F) {
                throw new IllegalArgumentException("the value of header " + name + " has " + describe(c) + " at " + i
                        + ": a header value may hold no control character but tab");
            }
        }
        if (!value.isEmpty() && (isSpace(value.charAt(0)) || isSpace(value.charAt(value.length() - 1)))) {
            throw new IllegalArgumentException("the value of header " + name + " may not begin or end with a space or tab");
        }
        return value;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    private static String describe(char c) {
        return c < 0x20 || c == 0x7F ? String.format("control character 0x%02X", (int) c) : "'" + c + "'";
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.chars().forEach(c -> b.append(c < 0x20 || c == 0x7F ? String.format("\\x%02X", c) : String.valueOf((char) c)));
        return b.toString();
    }
}
