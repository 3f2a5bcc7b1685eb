package wsjava.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;

/**
 * A request that can't be upgraded. It carries the HTTP status to answer with, the headers that
 * status needs (426 needs {@code Sec-WebSocket-Version}), and a one-line reason for the body.
 */
public class HandshakeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final Map<String, String> headers;

    public HandshakeException(int status, String reason) {
        this(status, reason, Collections.emptyMap());
    }

    public HandshakeException(int status, String reason, Map<String, String> headers) {
        super(reason);
        this.status = status;
        this.headers = headers;
    }

    public int status() {
        return status;
    }

    /** The complete HTTP response, closing the connection. */
    public byte[] toHttpResponse() {
        return HttpResponses.plain(status, getMessage() + "\n", headers);
    }

    /** The complete HTTP response as text, for callers that want a String. */
    public String toHttpResponseText() {
        return new String(toHttpResponse(), StandardCharsets.UTF_8);
    }
}
