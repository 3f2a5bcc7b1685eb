package wsjava.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One extension a client offers in {@code Sec-WebSocket-Extensions} (RFC 6455 section 9.1): a name
 * and its parameters, in order. {@link #parse} reads the whole header strictly: a value that does
 * not follow the grammar is a 400, never a guess.
 *
 * <pre>
 *   extension-list = 1#extension
 *   extension      = token *( OWS ";" OWS token [ "=" ( token / quoted-string ) ] )
 * </pre>
 * A quoted value must be a token once unquoted.
 */
public final class ExtensionOffer {

    private final String name;
    private final Map<String, String> parameters;
    private final boolean repeatsParameter;

    private ExtensionOffer(String name, Map<String, String> parameters, boolean repeatsParameter) {
        this.name = name;
        this.parameters = Collections.unmodifiableMap(parameters);
        this.repeatsParameter = repeatsParameter;
    }

    public String name() {
        return name;
    }

    /** Parameter names to values; a parameter given without a value maps to null. */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** Whether a parameter name appeared more than once, in any letter case (extensions must then decline the offer). */
    public boolean repeatsParameter() {
        return repeatsParameter;
    }

    @Override
    public String toString() {
        return name + parameters;
    }

    /**
     * The offers in the header lines given (each line a comma-separated list; empty list elements
     * are allowed, RFC 9110 section 5.6.1). Throws {@link HandshakeException} 400 on bad syntax.
     */
    public static List<ExtensionOffer> parse(List<String> headerValues) {
        List<ExtensionOffer> offers = new ArrayList<>();
        for (String value : headerValues) {
            new Scanner(value).readList(offers);
        }
        if (offers.isEmpty() && !headerValues.isEmpty()) {
            throw bad("names no extension");
        }
        return offers;
    }

    private static HandshakeException bad(String why) {
        return new HandshakeException(400, "invalid Sec-WebSocket-Extensions header: " + why);
    }

    /** A cursor over one header line. */
    private static final class Scanner {
        private final String s;
        private int at;

        Scanner(String s) {
            this.s = s;
        }

        void readList(List<ExtensionOffer> out) {
            while (true) {
                skipSpace();
                if (at < s.length() && s.charAt(at) != ',') {
                    out.add(readExtension());
                    skipSpace();
                }
                if (at == s.length()) {
                    return;
                }
                expect(',');
            }
        }

        private ExtensionOffer readExtension() {
            String name = readToken("an extension name");
            Map<String, String> parameters = new LinkedHashMap<>();
            Set<String> seen = new HashSet<>();
            boolean repeats = false;
            skipSpace();
            while (at < s.length() && s.charAt(at) == ';') {
                at++;
                skipSpace();
                String parameter = readToken("a parameter name");
                skipSpace();
                String value = null;
                if (at < s.length() && s.charAt(at) == '=') {
                    at++;
                    skipSpace();
                    value = at < s.length() && s.charAt(at) == '"' ? readQuotedToken() : readToken("a parameter value");
                    skipSpace();
                }
                // Parameter names are tokens, compared without regard to case (RFC 7692 section 5.1).
                repeats |= !seen.add(parameter.toLowerCase(Locale.ROOT));
                parameters.put(parameter, value);
            }
            return new ExtensionOffer(name, parameters, repeats);
        }

        private String readToken(String what) {
            int start = at;
            while (at < s.length() && isTokenChar(s.charAt(at))) {
                at++;
            }
            if (start == at) {
                throw bad("expected " + what + " at position " + start + " of \"" + s + "\"");
            }
            return s.substring(start, at);
        }

        private String readQuotedToken() {
            StringBuilder value = new StringBuilder();
            at++;
            while (at < s.length() && s.charAt(at) != '"') {
                char c = s.charAt(at++);
                if (c == '\\') {
                    if (at == s.length()) {
                        break;
                    }
                    c = s.charAt(at++);
                }
                value.append(c);
            }
            if (at == s.length()) {
                throw bad("unterminated quoted value in \"" + s + "\"");
            }
            at++;
            if (value.length() == 0 || !value.chars().allMatch(c -> isTokenChar((char) c))) {
                throw bad("a quoted value must be a token, got \"" + value + "\"");
            }
            return value.toString();
        }

        private void expect(char c) {
            if (at >= s.length() || s.charAt(at) != c) {
                throw bad("expected '" + c + "' at position " + at + " of \"" + s + "\"");
            }
            at++;
        }

        private void skipSpace() {
            while (at < s.length() && (s.charAt(at) == ' ' || s.charAt(at) == '\t')) {
                at++;
            }
        }
    }

    /** RFC 9110 section 5.6.2 tchar. */
    static boolean isTokenChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
