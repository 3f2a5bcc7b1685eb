package wsjava.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A parsed HTTP/1.1 request head: request line and headers, names matched case-insensitively. */
public final class HttpRequest {

    private final String method;
    private final String target;
    private final String version;
    private final Map<String, List<String>> headers;

    HttpRequest(String method, String target, String version, Map<String, List<String>> headers) {
        this.method = method;
        this.target = target;
        this.version = version;
        this.headers = headers;
    }

    public String method() {
        return method;
    }

    /** The request target as sent, for example {@code /chat?token=abc}. */
    public String target() {
        return target;
    }

    public String path() {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    /** The query string without '?', or "" when there is none. */
    public String query() {
        int q = target.indexOf('?');
        return q < 0 ? "" : target.substring(q + 1);
    }

    /** The first value of a query parameter (no percent-decoding beyond '+' kept as is), or null. */
    public String queryParameter(String name) {
        for (String pair : query().split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            if (key.equals(name)) {
                return eq < 0 ? "" : java.net.URLDecoder.decode(pair.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    public String version() {
        return version;
    }

    /** All values of a header, in arrival order; empty when absent. */
    public List<String> headerValues(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null ? Collections.emptyList() : values;
    }

    /** The values of a header joined with ", " (RFC 7230 section 3.2.2), or null when absent. */
    public String header(String name) {
        List<String> values = headerValues(name);
        return values.isEmpty() ? null : String.join(", ", values);
    }

    /** Whether a comma-separated header contains {@code token}, case-insensitively. */
    public boolean headerHasToken(String name, String token) {
        for (String value : headerValues(name)) {
            for (String part : value.split(",")) {
                if (part.trim().equalsIgnoreCase(token)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Header names (lower case) to joined values, in arrival order. */
    public Map<String, String> headers() {
        Map<String, String> joined = new LinkedHashMap<>();
        for (String name : headers.keySet()) {
            joined.put(name, header(name));
        }
        return joined;
    }

    static Map<String, List<String>> newHeaderMap() {
        return new LinkedHashMap<>();
    }

    static void addHeader(Map<String, List<String>> headers, String name, String value) {
        headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>(1)).add(value);
    }
}
