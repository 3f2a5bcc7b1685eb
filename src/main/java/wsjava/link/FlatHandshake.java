package wsjava.link;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import wsjava.protocol.Handshake;
import wsjava.protocol.HandshakeException;
import wsjava.protocol.HttpRequest;
import wsjava.protocol.HttpRequestParser;

/** {@link WSJavaLink#handshake}'s work: an upgrade request checked, as the flat String array WL reads. */
final class FlatHandshake {

    private static final Base64.Encoder B64 = Base64.getEncoder();

    private FlatHandshake() {
    }

    /**
     * Status ("0" when the head is incomplete), Base64 response to send, path, query, chosen
     * subprotocol, reason, Base64 of the bytes after the head, then header name/value pairs.
     */
    static String[] check(byte[] request, String[] subprotocols) {
        ByteBuffer in = ByteBuffer.wrap(request);
        try {
            HttpRequest parsed = new HttpRequestParser(64 * 1024).parse(in);
            if (parsed == null) {
                return new String[] {"0", "", "", "", "", "incomplete request head", ""};
            }
            byte[] rest = new byte[in.remaining()];
            in.get(rest);
            String[] head;
            try {
                Handshake.HandshakeResponse response = Handshake.accept(parsed, Arrays.asList(subprotocols));
                head = new String[] {"101", B64.encodeToString(response.bytes()), parsed.path(), parsed.query(),
                    response.subprotocol() == null ? "" : response.subprotocol(), "", B64.encodeToString(rest)};
            } catch (HandshakeException e) {
                head = new String[] {Integer.toString(e.status()), B64.encodeToString(e.toHttpResponse()), parsed.path(),
                    parsed.query(), "", e.getMessage(), B64.encodeToString(rest)};
            }
            Map<String, String> headers = parsed.headers();
            String[] out = Arrays.copyOf(head, head.length + 2 * headers.size());
            int at = head.length;
            for (Map.Entry<String, String> h : headers.entrySet()) {
                out[at++] = h.getKey();
                out[at++] = h.getValue();
            }
            return out;
        } catch (HandshakeException e) {
            return new String[] {Integer.toString(e.status()), B64.encodeToString(e.toHttpResponse()), "", "", "", e.getMessage(), ""};
        }
    }
}
