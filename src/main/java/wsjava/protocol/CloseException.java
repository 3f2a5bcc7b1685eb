package wsjava.protocol;

/**
 * A reason to fail a WebSocket connection. It carries the close code to send, so whoever catches
 * it needs no table: the connection sends a close frame with {@link #code()} and {@link #getMessage()}.
 */
public class CloseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;

    public CloseException(int code, String reason) {
        super(reason);
        this.code = code;
    }

    /** The close code to send (RFC 6455 section 7.4). */
    public int code() {
        return code;
    }
}
