package wsjava.protocol;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** The server side of the opening handshake (RFC 6455 section 4.2). */
public final class Handshake {

    /** The GUID every server appends to the client's key (section 1.3). */
    public static final String KEY_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private static final Map<String, String> VERSION_HEADER = Collections.singletonMap("Sec-WebSocket-Version", "13");

    private Handshake() {
    }

    /** {@code base64(SHA-1(key + GUID))}: the value of Sec-WebSocket-Accept. */
    public static String acceptKey(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] digest = sha1.digest((key + KEY_GUID).getBytes(StandardCharsets.ISO_8859_1));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-1", e);
        }
    }

    /**
     * Whether the request tries a WebSocket upgrade (and so gets 101 or an error saying what is
     * wrong) rather than being plain HTTP. An {@code Upgrade} to another protocol, such as h2c,
     * without WebSocket headers is plain HTTP: a server may ignore it (RFC 9110 section 7.8).
     */
    public static boolean isUpgradeRequest(HttpRequest request) {
        return request.headerHasToken("Upgrade", "websocket")
                || request.header("Sec-WebSocket-Key") != null
                || request.header("Sec-WebSocket-Version") != null;
    }

    /**
     * Checks an upgrade request and returns the response to send. Throws {@link HandshakeException}
     * with 400, or 426 for a version other than 13.
     *
     * @param subprotocols what the server speaks, most preferred first; the first one the client
     *                     also offers is chosen
     */
    public static HandshakeResponse accept(HttpRequest request, List<String> subprotocols) {
        return accept(request, subprotocols, Collections.emptyMap());
    }

    /** {@link #accept(HttpRequest, List)} with extra headers for the 101 response (checked by the caller). */
    public static HandshakeResponse accept(HttpRequest request, List<String> subprotocols, Map<String, String> extraHeaders) {
        validate(request);
        String protocol = chooseSubprotocol(request, subprotocols);
        StringBuilder response = new StringBuilder(160)
                .append("HTTP/1.1 101 Switching Protocols\r\n")
                .append("Upgrade: websocket\r\n")
                .append("Connection: Upgrade\r\n")
                .append("Sec-WebSocket-Accept: ").append(acceptKey(request.header("Sec-WebSocket-Key"))).append("\r\n");
        if (protocol != null) {
            response.append("Sec-WebSocket-Protocol: ").append(protocol).append("\r\n");
        }
        for (Map.Entry<String, String> h : extraHeaders.entrySet()) {
            response.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        response.append("\r\n");
        return new HandshakeResponse(protocol, response.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Checks that an upgrade request is one RFC 6455 section 4.2.1 lets us accept; throws
     * {@link HandshakeException} with 400, or 426 for a version other than 13.
     */
    public static void validate(HttpRequest request) {
        if (!"GET".equals(request.method())) {
            throw new HandshakeException(400, "WebSocket upgrade requires GET, not " + request.method());
        }
        if (!"HTTP/1.1".equals(request.version())) {
            throw new HandshakeException(400, "WebSocket upgrade requires HTTP/1.1, not " + request.version());
        }
        if (request.header("Host") == null) {
            throw new HandshakeException(400, "missing Host header");
        }
        if (!request.headerHasToken("Upgrade", "websocket")) {
            throw new HandshakeException(400, "Upgrade header must be websocket");
        }
        if (!request.headerHasToken("Connection", "Upgrade")) {
            throw new HandshakeException(400, "Connection header must include Upgrade");
        }
        List<String> versions = request.headerValues("Sec-WebSocket-Version");
        if (versions.size() != 1 || !"13".equals(versions.get(0))) {
            throw new HandshakeException(426, "unsupported Sec-WebSocket-Version: only 13 is supported", VERSION_HEADER);
        }
        List<String> keys = request.headerValues("Sec-WebSocket-Key");
        if (keys.size() != 1 || !isValidKey(keys.get(0))) {
            throw new HandshakeException(400, "Sec-WebSocket-Key must be 16 bytes in base64");
        }
    }

    static boolean isValidKey(String key) {
        if (key.length() != 24) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key).length == 16;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String chooseSubprotocol(HttpRequest request, List<String> supported) {
        for (String candidate : supported) {
            if (request.headerHasToken("Sec-WebSocket-Protocol", candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** The accepted handshake: the chosen subprotocol (or null) and the 101 response bytes. */
    public static final class HandshakeResponse {
        private final String subprotocol;
        private final byte[] bytes;

        HandshakeResponse(String subprotocol, byte[] bytes) {
            this.subprotocol = subprotocol;
            this.bytes = bytes;
        }

        public String subprotocol() {
            return subprotocol;
        }

        public byte[] bytes() {
            return bytes.clone();
        }
    }
}
