package wsjava.server;

import wsjava.protocol.CloseCodes;

/**
 * The code and reason a connection ended with, as {@code onClose} reports them: the first one
 * recorded wins (a peer's close, our own, a failure), and a connection that just vanished is 1006
 * ({@link #LOST}). A connection makes one only when it starts to end, so an open one keeps none.
 */
final class CloseStatus {

    /** What a connection that ended without any close recorded reports. */
    static final CloseStatus LOST = new CloseStatus(CloseCodes.ABNORMAL, "connection lost");
    /** What a connection shed when memory ran out reports (see {@link OutOfMemoryGuard}). */
    static final CloseStatus OUT_OF_MEMORY = new CloseStatus(CloseCodes.INTERNAL_ERROR, OutOfMemoryGuard.REASON);

    private final int code;
    private final String reason;

    CloseStatus(int code, String reason) {
        this.code = code;
        this.reason = reason;
    }

    int code() {
        return code;
    }

    String reason() {
        return reason;
    }
}
