package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.testing.PeerDeflate;

/**
 * A legitimate message that compresses 1,000:1 (16 MiB of zeros) is within every limit a user set,
 * so the ratio cap must not refuse it on its own: bytes past the cap are drawn from an allowance
 * (shared by a server's connections), and only what arrives while the allowance is spent gets 1009.
 */
@Timeout(60)
public class InflationAllowanceTest {

    private static final int SIXTEEN_MIB = 16 << 20;
    private static final byte[] ZEROS = new PeerDeflate(true, true).compress(new byte[SIXTEEN_MIB]);

    /** Inflates one message of {@link #ZEROS} and returns its length. */
    private static long inflateZeros(MessageInflater inflater) {
        long[] out = {0};
        MessageInflater.Sink sink = (buf, off, len) -> out[0] += len;
        inflater.inflate(ByteBuffer.wrap(ZEROS), sink);
        inflater.finish(sink);
        return out[0];
    }

    @Test
    void sixteenMebibytesOfZerosInflateWholeWithTheDefaultAllowance() {
        assertTrue(SIXTEEN_MIB / ZEROS.length > 900, "the message compresses about 1,000:1, was " + SIXTEEN_MIB / ZEROS.length);
        MessageInflater inflater = new MessageInflater(true, 200, null, null, InflationAllowance.forMessageLimit(SIXTEEN_MIB));
        assertEquals(SIXTEEN_MIB, inflateZeros(inflater));
    }

    @Test
    void theDefaultAllowanceTakesOneSuchMessageThenRefusesTheNext() {
        InflationAllowance allowance = InflationAllowance.forMessageLimit(SIXTEEN_MIB);
        assertEquals(SIXTEEN_MIB, inflateZeros(new MessageInflater(true, 200, null, null, allowance)));
        CloseException e = assertThrows(CloseException.class, () -> inflateZeros(new MessageInflater(true, 200, null, null, allowance)));
        assertEquals(CloseCodes.MESSAGE_TOO_BIG, e.code());
    }

    @Test
    void withoutAnAllowanceTheRatioCapStillRefuses() {
        MessageInflater inflater = new MessageInflater(true, 200, null, null);
        CloseException e = assertThrows(CloseException.class, () -> inflateZeros(inflater));
        assertEquals(CloseCodes.MESSAGE_TOO_BIG, e.code());
    }

    @Test
    void connectionsSharingAnAllowanceGet1009OnceItIsSpent() {
        InflationAllowance shared = new InflationAllowance(2L * SIXTEEN_MIB, 0);    // two limits, no refill: the count is exact
        int delivered = 0;
        int refused = 0;
        for (int connection = 0; connection < 5; connection++) {
            try {
                inflateZeros(new MessageInflater(true, 200, null, null, shared));
                delivered++;
            } catch (CloseException e) {
                assertEquals(CloseCodes.MESSAGE_TOO_BIG, e.code());
                refused++;
            }
        }
        // Each message draws what it inflates past max(1 MiB, 200 x its compressed size): about 12.8 MiB.
        assertEquals(2, delivered, "two messages fit in two message limits");
        assertEquals(3, refused);
        assertTrue(shared.available() < SIXTEEN_MIB);
    }

    @Test
    void theAllowanceRefillsAtItsRate() throws Exception {
        InflationAllowance allowance = new InflationAllowance(1000, 10_000);
        assertTrue(allowance.take(1000));
        assertFalse(allowance.take(1));
        Thread.sleep(200);      // 2,000 bytes' worth of time: refilled up to its capacity, not past it
        assertEquals(1000, allowance.available());
        assertFalse(allowance.take(1001));
        assertTrue(allowance.take(1000));
    }

    /** Inflates one compressed message drawing from {@code own} and {@code whole}; true if delivered, false on 1009. */
    public static boolean delivered(byte[] compressed, InflationAllowance own, InflationAllowance whole) {
        MessageInflater.Sink sink = (buf, off, len) -> { };
        try {
            MessageInflater inflater = new MessageInflater(true, 200, null, null, own, whole);
            inflater.inflate(ByteBuffer.wrap(compressed), sink);
            inflater.finish(sink);
            return true;
        } catch (CloseException e) {
            assertEquals(CloseCodes.MESSAGE_TOO_BIG, e.code());
            return false;
        }
    }

    @Test
    void aDrawTakesFromBothAllowancesOrFromNeither() {
        InflationAllowance own = new InflationAllowance(1000, 0);
        InflationAllowance whole = new InflationAllowance(300, 0);
        assertTrue(InflationAllowance.takeFromBoth(own, whole, 200));
        assertFalse(InflationAllowance.takeFromBoth(own, whole, 200), "the whole has 100 left");
        assertEquals(800, own.available(), "what the whole refused is not taken from the sender's own");
        assertEquals(100, whole.available());
    }
}
