package wsjava.protocol;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;

/**
 * Fuzzes the HTTP request-head parser with the handshake and the token lookup, as a server runs
 * them. Invariants: only a {@link HandshakeException} with a status the server sends escapes; the
 * parser never holds more than its limit; a parsed path is origin-form; the same bytes split
 * anywhere give the same answer.
 */
class HttpRequestFuzzTest {

    private static final Set<Integer> STATUSES = Set.of(400, 426, 431);
    private static final List<String> SUBPROTOCOLS = List.of("wljs", "chat");

    @FuzzTest
    void requestHead(FuzzedDataProvider data) {
        fuzzerTestOneInput(data);
    }

    public static void fuzzerTestOneInput(FuzzedDataProvider data) {
        int maxHeader = data.consumeInt(256, 4096);
        int cut = data.consumeInt(0, 4096);
        byte[] head = data.consumeRemainingAsBytes();
        String whole = answer(head, new int[0], maxHeader);
        String split = answer(head, new int[] {Math.min(cut, head.length)}, maxHeader);
        if (!whole.equals(split)) {
            throw new IllegalStateException("a split at " + cut + " changed the answer: " + whole + " / " + split);
        }
    }

    private static String answer(byte[] head, int[] cuts, int maxHeader) {
        HttpRequestParser parser = new HttpRequestParser(maxHeader);
        try {
            HttpRequest request = null;
            int at = 0;
            for (int i = 0; i <= cuts.length && request == null; i++) {
                int end = i < cuts.length ? cuts[i] : head.length;
                request = parser.parse(ByteBuffer.wrap(head, at, end - at));
                at = end;
                if (parser.bytesReceived() > maxHeader) {
                    throw new IllegalStateException("parser holds " + parser.bytesReceived() + " bytes, limit " + maxHeader);
                }
            }
            if (request == null) {
                return "incomplete";
            }
            if (!request.path().startsWith("/")) {
                throw new IllegalStateException("path not origin-form: " + request.path());
            }
            String token = request.queryParameter("token");
            if (!Handshake.isUpgradeRequest(request)) {
                return "http " + request.method() + " " + request.path() + " " + token;
            }
            Handshake.HandshakeResponse response = Handshake.accept(request, SUBPROTOCOLS);
            return "101 " + response.subprotocol() + " " + token;
        } catch (HandshakeException e) {
            if (!STATUSES.contains(e.status()) || e.getMessage() == null || e.getMessage().contains("\n")) {
                throw new IllegalStateException("unexpected refusal " + e.status() + ": " + e.getMessage(), e);
            }
            return "refused " + e.status();
        }
    }
}
