package wsjava.protocol;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;

/**
 * Fuzzes the close-frame payload parser. Invariants: only a {@link CloseException} with 1002 or
 * 1007 escapes; what parses has a code allowed on the wire and a reason that encodes back to the
 * same payload.
 */
class CloseFrameFuzzTest {

    @FuzzTest
    void closePayload(byte[] payload) {
        fuzzerTestOneInput(payload);
    }

    public static void fuzzerTestOneInput(byte[] input) {
        byte[] payload = Arrays.copyOf(input, Math.min(input.length, 125));   // a control payload is at most 125 bytes
        CloseFrames.CloseReason reason;
        try {
            reason = CloseFrames.parse(payload, payload.length);
        } catch (CloseException e) {
            if (e.code() != CloseCodes.PROTOCOL_ERROR && e.code() != CloseCodes.INVALID_PAYLOAD) {
                throw new IllegalStateException("a bad close payload failed with " + e.code(), e);
            }
            return;
        }
        if (payload.length == 0) {
            if (reason.code() != CloseCodes.NO_STATUS) {
                throw new IllegalStateException("an empty close payload must read as 1005");
            }
            return;
        }
        if (!CloseCodes.isValidOnWire(reason.code())) {
            throw new IllegalStateException("accepted close code " + reason.code());
        }
        if (!Arrays.equals(payload, CloseFrames.payload(reason.code(), reason.reason()))) {
            throw new IllegalStateException("the reason did not survive a round trip");
        }
    }
}
