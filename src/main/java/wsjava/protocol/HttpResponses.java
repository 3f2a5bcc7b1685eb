package wsjava.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Builds the few plain HTTP/1.1 responses a WebSocket server sends. */
public final class HttpResponses {

    private HttpResponses() {
    }

    public static String reasonPhrase(int status) {
        switch (status) {
            case 101: return "Switching Protocols";
            case 200: return "OK";
            case 400: return "Bad Request";
            case 401: return "Unauthorized";
            case 403: return "Forbidden";
            case 404: return "Not Found";
            case 405: return "Method Not Allowed";
            case 408: return "Request Timeout";
            case 426: return "Upgrade Required";
            case 431: return "Request Header Fields Too Large";
            case 500: return "Internal Server Error";
            case 503: return "Service Unavailable";
            default: return "Error";
        }
    }

    /** A text/plain response that closes the connection. */
    public static byte[] plain(int status, String body, Map<String, String> headers) {
        return plain(status, body, headers, true);
    }

    public static byte[] plain(int status, String body, Map<String, String> headers, boolean includeBody) {
        return response(status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8), headers, includeBody);
    }

    /**
     * The response head, and the body unless {@code includeBody} is false (the answer to HEAD,
     * whose Content-Length still gives the body's size). Every response says {@code nosniff}, so a
     * browser never reads an error body that echoes the request as HTML or script.
     */
    public static byte[] response(int status, String contentType, byte[] body, Map<String, String> headers, boolean includeBody) {
        StringBuilder head = new StringBuilder(160);
        head.append("HTTP/1.1 ").append(status).append(' ').append(reasonPhrase(status)).append("\r\n");
        for (Map.Entry<String, String> h : headers.entrySet()) {
            head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        head.append("Content-Type: ").append(contentType).append("\r\n")
                .append("Content-Length: ").append(body.length).append("\r\n")
                .append("Cache-Control: no-store\r\n")
                .append("X-Content-Type-Options: nosniff\r\n")
                .append("Connection: close\r\n\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        if (!includeBody) {
            return headBytes;
        }
        byte[] out = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, out, 0, headBytes.length);
        System.arraycopy(body, 0, out, headBytes.length, body.length);
        return out;
    }
}
