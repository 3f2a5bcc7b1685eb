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
    private final String originForm;
    private final String version;
    private final Map<String, List<String>> headers;

    HttpRequest(String method, String target, String version, Map<String, List<String>> headers) {
        this.method = method;
        this.target = target;
        this.originForm = originForm(target);
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

    /**
     * The path and query of an absolute-form target ({@code GET http://host/chat HTTP/1.1}, which
     * RFC 9112 section 3.2.2 says a server must accept); an origin-form target as it is.
     */
    static String originForm(String target) {
        if (target.startsWith("/")) {
            return target;
        }
        int authority = target.indexOf("://");
        int slash = target.indexOf('/', authority + 3);
        int question = target.indexOf('?', authority + 3);
        if (slash < 0 || (question >= 0 && question < slash)) {
            return question < 0 ? "/" : "/" + target.substring(question);
        }
        return target.substring(slash);
    }

    /** The path, for example {@code /chat}, also for an absolute-form target. */
    public String path() {
        int q = originForm.indexOf('?');
        return q < 0 ? originForm : originForm.substring(0, q);
    }

    /** The query string without '?', or "" when there is none. */
    public String query() {
        int q = originForm.indexOf('?');
        return q < 0 ? "" : originForm.substring(q + 1);
    }

    /**
     * The first value of a query parameter, percent-decoded by RFC 3986 ({@code '+'} stays a plus),
     * or null. A malformed escape throws a {@link HandshakeException} with 400.
     */
    public String queryParameter(String name) {
        for (String pair : query().split("&")) {
            int eq = pair.indexOf('=');
            String key = PercentDecoding.decode(eq < 0 ? pair : pair.substring(0, eq));
            if (key.equals(name)) {
                return eq < 0 ? "" : PercentDecoding.decode(pair.substring(eq + 1));
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

    /** Header names (lower case) to every value, in arrival order (for {@link CompactRequest}). */
    Map<String, List<String>> headerLists() {
        return Collections.unmodifiableMap(headers);
    }

    static Map<String, List<String>> newHeaderMap() {
        return new LinkedHashMap<>();
    }

    static void addHeader(Map<String, List<String>> headers, String name, String value) {
        headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>(1)).add(value);
    }
}
