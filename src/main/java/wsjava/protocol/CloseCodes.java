package wsjava.protocol;

/** Close status codes (RFC 6455 section 7.4) and the rule for which of them may appear on the wire. */
public final class CloseCodes {

    public static final int NORMAL = 1000;
    public static final int GOING_AWAY = 1001;
    public static final int PROTOCOL_ERROR = 1002;
    public static final int UNSUPPORTED_DATA = 1003;
    /** Never sent: stands for "the close frame had no code". */
    public static final int NO_STATUS = 1005;
    /** Never sent: stands for "the connection dropped without a close frame". */
    public static final int ABNORMAL = 1006;
    public static final int INVALID_PAYLOAD = 1007;
    public static final int POLICY_VIOLATION = 1008;
    public static final int MESSAGE_TOO_BIG = 1009;
    public static final int MANDATORY_EXTENSION = 1010;
    public static final int INTERNAL_ERROR = 1011;

    private CloseCodes() {
    }

    /**
     * Whether a peer may send {@code code} in a close frame: 1000-1003, 1007-1014 (the IANA-registered
     * ones, 1012-1014 included) and the application ranges 3000-4999. 1004-1006 and 1015 are reserved
     * or local-only; everything else is unassigned.
     */
    public static boolean isValidOnWire(int code) {
        return (code >= 1000 && code <= 1003)
                || (code >= 1007 && code <= 1014)
                || (code >= 3000 && code <= 4999);
    }
}
