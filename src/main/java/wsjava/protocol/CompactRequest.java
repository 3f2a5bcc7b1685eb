package wsjava.protocol;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * An {@link HttpRequest} folded into one Latin-1 byte array, for as long as an open connection
 * lives: a parsed request is a map, lists and two Strings per header (about 2 KB for a browser's
 * upgrade), this is one array of the head's size. Listeners rarely read headers after the upgrade,
 * so each read unfolds the request again instead of keeping the map.
 */
public final class CompactRequest {

    /** Lines are apart by LF: the parser refused CR, LF and NUL inside a request line or a value. */
    private static final byte LINE_END = '\n';

    /** "method target version", then one "name:value" line per header value, in arrival order. */
    private final byte[] folded;

    private CompactRequest(byte[] folded) {
        this.folded = folded;
    }

    public static CompactRequest of(HttpRequest request) {
        StringBuilder text = new StringBuilder(256);
        text.append(request.method()).append(' ').append(request.target()).append(' ').append(request.version());
        for (Map.Entry<String, List<String>> header : request.headerLists().entrySet()) {
            for (String value : header.getValue()) {
                text.append((char) LINE_END).append(header.getKey()).append(':').append(value);
            }
        }
        return new CompactRequest(text.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The request as it was parsed. */
    public HttpRequest unfold() {
        String[] lines = new String(folded, StandardCharsets.ISO_8859_1).split(String.valueOf((char) LINE_END), -1);
        String[] requestLine = lines[0].split(" ", 3);
        Map<String, List<String>> headers = HttpRequest.newHeaderMap();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            HttpRequest.addHeader(headers, lines[i].substring(0, colon), lines[i].substring(colon + 1));
        }
        return new HttpRequest(requestLine[0], requestLine[1], requestLine[2], headers);
    }

    /** The path, as {@link HttpRequest#path()} gives it, read from the request line alone: listeners ask it per message. */
    public String path() {
        String target = originForm();
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    /** The query without '?', or "", as {@link HttpRequest#query()} gives it, read from the request line alone. */
    public String query() {
        String target = originForm();
        int q = target.indexOf('?');
        return q < 0 ? "" : target.substring(q + 1);
    }

    /** The request line's target (between its first two spaces: neither a method nor a target holds one), in origin form. */
    private String originForm() {
        int start = indexOf((byte) ' ', 0) + 1;
        int end = indexOf((byte) ' ', start);
        return HttpRequest.originForm(new String(folded, start, end - start, StandardCharsets.ISO_8859_1));
    }

    private int indexOf(byte b, int from) {
        for (int i = from; i < folded.length; i++) {
            if (folded[i] == b) {
                return i;
            }
        }
        return folded.length;
    }

    /** Bytes the folded form holds (for tests that bound what a connection keeps). */
    public int foldedBytes() {
        return folded.length;
    }
}
