package wsjava.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import wsjava.protocol.DeflateAgreement;
import wsjava.protocol.ExtensionOffer;
import wsjava.protocol.Handshake;
import wsjava.protocol.HandshakeException;

/**
 * The client side of the opening handshake (RFC 6455 section 4.1): the request, and a strict check
 * of the answer. Anything but a 101 with the right Upgrade, Connection and accept key, a
 * subprotocol we offered (or none) and an extension we offered with parameters we can keep to, fails
 * the connection before a frame is read.
 */
final class ClientHandshake {

    static final int MAX_RESPONSE_HEAD = 16 * 1024;
    static final String DEFLATE_OFFER = "permessage-deflate";

    private final String key;
    private final ClientConfig config;

    /** What the server agreed to. */
    String subprotocol;
    DeflateAgreement deflate;
    final Map<String, String> responseHeaders = new LinkedHashMap<>();

    ClientHandshake(ClientConfig config) {
        byte[] nonce = new byte[16];
        new SecureRandom().nextBytes(nonce);
        this.key = Base64.getEncoder().encodeToString(nonce);
        this.config = config;
    }

    byte[] request(URI uri) {
        boolean secure = "wss".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort();
        String host = uri.getHost().contains(":") ? "[" + uri.getHost() + "]" : uri.getHost();
        String hostHeader = port < 0 || port == (secure ? 443 : 80) ? host : host + ":" + port;
        String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        StringBuilder b = new StringBuilder(256)
                .append("GET ").append(target).append(" HTTP/1.1\r\n")
                .append("Host: ").append(hostHeader).append("\r\n")
                .append("Upgrade: websocket\r\nConnection: Upgrade\r\n")
                .append("Sec-WebSocket-Key: ").append(key).append("\r\n")
                .append("Sec-WebSocket-Version: 13\r\n");
        if (!config.subprotocols().isEmpty()) {
            b.append("Sec-WebSocket-Protocol: ").append(String.join(", ", config.subprotocols())).append("\r\n");
        }
        if (config.compression()) {
            // No client_max_window_bits: a server could then ask for a window java.util.zip cannot keep to.
            b.append("Sec-WebSocket-Extensions: ").append(DEFLATE_OFFER).append("\r\n");
        }
        config.headers().forEach((name, value) -> b.append(name).append(": ").append(value).append("\r\n"));
        return b.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Reads the response head byte by byte (nothing after it is consumed) and checks it. */
    void readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the server closed the connection during the handshake");
            }
            if (head.length() >= MAX_RESPONSE_HEAD) {
                throw new IOException("handshake response head over " + MAX_RESPONSE_HEAD + " bytes");
            }
            head.append((char) b);
        }
        check(head.toString());
    }

    void check(String head) throws IOException {
        String[] lines = head.split("\r\n");
        String status = lines[0];
        if (!status.startsWith("HTTP/1.1 101")) {
            throw new IOException("the server did not switch protocols: " + status);
        }
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                throw new IOException("malformed response header: " + lines[i]);
            }
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).trim();
            responseHeaders.merge(name, value, (a, b) -> a + ", " + b);
        }
        if (!"websocket".equalsIgnoreCase(responseHeaders.get("upgrade"))) {
            throw new IOException("the response's Upgrade is " + responseHeaders.get("upgrade") + ", not websocket");
        }
        if (!hasToken(responseHeaders.get("connection"), "upgrade")) {
            throw new IOException("the response's Connection does not include Upgrade: " + responseHeaders.get("connection"));
        }
        if (!Handshake.acceptKey(key).equals(responseHeaders.get("sec-websocket-accept"))) {
            throw new IOException("wrong Sec-WebSocket-Accept: " + responseHeaders.get("sec-websocket-accept"));
        }
        subprotocol = responseHeaders.get("sec-websocket-protocol");
        if (subprotocol != null && !config.subprotocols().contains(subprotocol)) {
            throw new IOException("the server chose subprotocol " + subprotocol + ", which was not offered");
        }
        String extensions = responseHeaders.get("sec-websocket-extensions");
        if (extensions != null) {
            deflate = agreedDeflate(extensions);
        }
    }

    /** RFC 7692 section 7.1: only what we offered, with parameters a response may carry and we can keep to. */
    private DeflateAgreement agreedDeflate(String header) throws IOException {
        List<ExtensionOffer> agreed;
        try {
            agreed = ExtensionOffer.parse(List.of(header));
        } catch (HandshakeException e) {
            throw new IOException("malformed Sec-WebSocket-Extensions in the response: " + header);
        }
        if (!config.compression() || agreed.size() != 1 || !agreed.get(0).name().equalsIgnoreCase(DeflateAgreement.NAME)
                || agreed.get(0).repeatsParameter()) {
            throw new IOException("the server agreed to extensions that were not offered: " + header);
        }
        for (Map.Entry<String, String> p : agreed.get(0).parameters().entrySet()) {
            String name = p.getKey().toLowerCase(Locale.ROOT);
            boolean ok = (name.equals("server_no_context_takeover") || name.equals("client_no_context_takeover")) && p.getValue() == null
                    || name.equals("server_max_window_bits") && p.getValue() != null && p.getValue().matches("[89]|1[0-5]");
            if (!ok) {
                throw new IOException("permessage-deflate parameter " + p.getKey() + (p.getValue() == null ? "" : "=" + p.getValue())
                        + " in the response is not one a client can accept here");
            }
        }
        return DeflateAgreement.fromResponse(agreed.get(0).parameters());
    }

    private static boolean hasToken(String header, String token) {
        if (header == null) {
            return false;
        }
        for (String part : header.split(",")) {
            if (part.trim().equalsIgnoreCase(token)) {
                return true;
            }
        }
        return false;
    }
}
