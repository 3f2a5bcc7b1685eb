package wsjava.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Incremental parser for an HTTP/1.1 request head: bytes may arrive in any pieces. It stops right
 * after the blank line, leaving whatever follows (a client may send frames at once) in the buffer.
 * A head above {@code maxHeaderBytes} fails with 431 before it is all buffered.
 */
public final class HttpRequestParser {

    /** Typical upgrade requests fit in this; the buffer only grows for larger heads. */
    private static final int INITIAL_BUFFER = 1024;

    private final int maxHeaderBytes;
    private byte[] head;
    private int size;

    public HttpRequestParser(int maxHeaderBytes) {
        this.maxHeaderBytes = maxHeaderBytes;
        this.head = new byte[Math.min(INITIAL_BUFFER, maxHeaderBytes)];
    }

    /** Bytes of request head received so far. */
    public int bytesReceived() {
        return size;
    }

    /** Reads from {@code in} up to the end of the head; returns the request, or null when more is needed. */
    public HttpRequest parse(ByteBuffer in) {
        while (in.hasRemaining()) {
            if (size == maxHeaderBytes) {
                throw new HandshakeException(431, "request header block exceeds " + maxHeaderBytes + " bytes");
            }
            if (size == head.length) {
                head = java.util.Arrays.copyOf(head, Math.min(maxHeaderBytes, head.length * 2));
            }
            byte b = in.get();
            head[size++] = b;
            rejectBareLineEnd(b);
            if (b == '\n' && size >= 4 && head[size - 2] == '\r' && head[size - 3] == '\n' && head[size - 4] == '\r') {
                return parseHead(new String(head, 0, size - 4, StandardCharsets.ISO_8859_1));
            }
        }
        return null;
    }

    /**
     * Lines end with CR LF, nothing else: a bare LF or CR gets 400 as it arrives. Waiting for a CR LF
     * CR LF that such a client never sends would leave it without an answer until the head's deadline.
     */
    private void rejectBareLineEnd(byte b) {
        boolean afterCr = size >= 2 && head[size - 2] == '\r';
        if (b == '\n' && !afterCr) {
            throw new HandshakeException(400, "request head line ends with a bare LF (CR LF expected)");
        }
        if (afterCr && b != '\n') {
            throw new HandshakeException(400, "request head contains a bare CR");
        }
    }

    private static HttpRequest parseHead(String text) {
        String[] lines = text.split("\r\n", -1);
        for (int i = 0; i < lines.length; i++) {
            rejectControlCharacters(lines[i], i);
        }
        String[] requestLine = lines[0].split(" ", -1);
        if (requestLine.length != 3 || requestLine[0].isEmpty() || requestLine[1].isEmpty()) {
            throw new HandshakeException(400, "malformed request line");
        }
        if (!requestLine[2].startsWith("HTTP/")) {
            throw new HandshakeException(400, "malformed request line: no HTTP version");
        }
        String target = requestLine[1];
        if (!target.startsWith("/") && !isAbsoluteHttpUri(target)) {
            throw new HandshakeException(400, "request target must be an absolute path or an http(s) URI");
        }
        PercentDecoding.requireWellFormed(target);
        Map<String, List<String>> headers = HttpRequest.newHeaderMap();
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            int colon = line.indexOf(':');
            if (colon <= 0 || !isToken(line, colon)) {
                throw new HandshakeException(400, "malformed header line " + i);
            }
            HttpRequest.addHeader(headers, line.substring(0, colon), line.substring(colon + 1).trim());
        }
        checkHost(headers.get("host"), requestLine[2]);
        return new HttpRequest(requestLine[0], target, requestLine[2], headers);
    }

    /**
     * Field values are visible characters, spaces and tabs (RFC 9110 section 5.5): a bare CR or LF
     * (a request-smuggling trick) or a NUL gets 400 instead of being read into a value.
     */
    private static void rejectControlCharacters(String line, int index) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if ((c < ' ' && c != '\t') || c == 127) {
                throw new HandshakeException(400, (index == 0 ? "request line" : "header line " + index)
                        + " contains control character 0x" + Integer.toHexString(c));
            }
        }
    }

    private static boolean isAbsoluteHttpUri(String target) {
        String lower = target.toLowerCase(java.util.Locale.ROOT);
        return (lower.startsWith("http://") || lower.startsWith("https://")) && target.indexOf("://") + 3 < target.length();
    }

    /** RFC 9112 section 3.2: an HTTP/1.1 request has exactly one Host, and ours are never empty. */
    private static void checkHost(List<String> hosts, String version) {
        if (hosts == null) {
            if ("HTTP/1.1".equals(version)) {
                throw new HandshakeException(400, "missing Host header");
            }
            return;
        }
        if (hosts.size() > 1) {
            throw new HandshakeException(400, "more than one Host header");
        }
        String host = hosts.get(0);
        if (host.isEmpty() || host.indexOf(',') >= 0 || host.indexOf(' ') >= 0 || host.indexOf('\t') >= 0) {
            throw new HandshakeException(400, "invalid Host header: " + (host.isEmpty() ? "empty" : host));
        }
    }

    /** Header names are tokens: no spaces (which would also hide obsolete line folding). */
    private static boolean isToken(String line, int end) {
        for (int i = 0; i < end; i++) {
            char c = line.charAt(i);
            if (c <= ' ' || c >= 127) {
                return false;
            }
        }
        return true;
    }
}
