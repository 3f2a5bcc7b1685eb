package wsjava.protocol;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzzes the Sec-WebSocket-Extensions parser and the permessage-deflate negotiation. Invariants:
 * only a 400 {@link HandshakeException} escapes; an agreement's response header parses back to one
 * permessage-deflate offer with only the parameters a server may answer with.
 */
class ExtensionHeaderFuzzTest {

    @FuzzTest
    void extensionHeader(byte[] input) {
        fuzzerTestOneInput(input);
    }

    public static void fuzzerTestOneInput(byte[] input) {
        String header = new String(input, StandardCharsets.ISO_8859_1);
        List<ExtensionOffer> offers;
        try {
            offers = ExtensionOffer.parse(Arrays.asList(header.split("\n", -1)));
        } catch (HandshakeException e) {
            if (e.status() != 400) {
                throw new IllegalStateException("a bad extension header got " + e.status(), e);
            }
            return;
        }
        for (boolean takeover : new boolean[] {true, false}) {
            DeflateAgreement agreed = DeflateAgreement.negotiate(offers, takeover);
            if (agreed == null) {
                continue;
            }
            List<ExtensionOffer> answer = ExtensionOffer.parse(List.of(agreed.responseHeader()));
            if (answer.size() != 1 || !answer.get(0).name().equals(DeflateAgreement.NAME)) {
                throw new IllegalStateException("response header " + agreed.responseHeader());
            }
            for (String p : answer.get(0).parameters().keySet()) {
                if (!p.equals("server_no_context_takeover") && !p.equals("client_no_context_takeover") && !p.equals("server_max_window_bits")) {
                    throw new IllegalStateException("answered with parameter " + p);
                }
            }
            if (!takeover && !(agreed.serverNoContextTakeover() && agreed.clientNoContextTakeover())) {
                throw new IllegalStateException("context takeover agreed although the server refuses it");
            }
        }
    }
}
