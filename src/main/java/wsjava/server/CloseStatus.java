package wsjava.server;

import wsjava.protocol.CloseCodes;

/**
 * The code and reason a connection ended with, as {@code onClose} reports them: the first one
 * recorded wins (a peer's close, our own, a failure), and a connection that just vanished is 1006.
 */
final class CloseStatus {

    private boolean recorded;
    private int code = CloseCodes.ABNORMAL;
    private String reason = "connection lost";

    void record(int closeCode, String closeReason) {
        if (!recorded) {
            recorded = true;
            code = closeCode;
            reason = closeReason;
        }
    }

    int code() {
        return code;
    }

    String reason() {
        return reason;
    }
}
