package wsjava.server;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an {@link UpgradeHandler} answers: accept (optionally with the listener for this connection,
 * the subprotocol, extra response headers) or reject with an HTTP status and a reason.
 */
public final class UpgradeDecision {

    private final int rejectStatus;
    private final String rejectReason;
    private WebSocketListener listener;
    private String subprotocol;
    private final Map<String, String> headers = new LinkedHashMap<>();

    private UpgradeDecision(int rejectStatus, String rejectReason) {
        this.rejectStatus = rejectStatus;
        this.rejectReason = rejectReason;
    }

    /** Accept, with the server's listener and its subprotocol choice unless set below. */
    public static UpgradeDecision accept() {
        return new UpgradeDecision(0, null);
    }

    /** Refuse with a 4xx or 5xx status; the reason goes in the response body. */
    public static UpgradeDecision reject(int status, String reason) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("a refusal needs a 4xx or 5xx status, not " + status);
        }
        return new UpgradeDecision(status, reason == null ? "" : reason);
    }

    /** This connection's events go to {@code value} instead of the server's listener. */
    public UpgradeDecision listener(WebSocketListener value) {
        listener = value;
        return this;
    }

    /** The subprotocol to agree on; it must be one the client offered. */
    public UpgradeDecision subprotocol(String value) {
        subprotocol = value;
        return this;
    }

    /** An extra header in the 101 response (for example Set-Cookie). */
    public UpgradeDecision header(String name, String value) {
        if (!isToken(name) || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("not a valid header: " + name);
        }
        headers.put(name, value);
        return this;
    }

    boolean accepted() {
        return rejectStatus == 0;
    }

    int rejectStatus() {
        return rejectStatus;
    }

    String rejectReason() {
        return rejectReason;
    }

    WebSocketListener listenerOr(WebSocketListener fallback) {
        return listener == null ? fallback : listener;
    }

    String subprotocol() {
        return subprotocol;
    }

    Map<String, String> headers() {
        return Collections.unmodifiableMap(headers);
    }

    private static boolean isToken(String name) {
        if (name == null || name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 127 || "()<>@,;:\\\"/[]?={}".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }
}
