package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.InflationAllowanceTest;
import wsjava.testing.PeerDeflate;

/**
 * One address streaming messages that inflate far past the ratio cap is held to its own allowance:
 * others, who send one now and then or every few seconds, still get theirs delivered. Many
 * addresses together are held to the server's.
 */
@Timeout(60)
class InflationAllowancesTest {

    private static final int LIMIT = 8 << 20;      // the message limit under -Xmx128m
    private static final byte[] EIGHT_MIB = new PeerDeflate(true, true).compress(new byte[LIMIT - 100_000]);
    private static final byte[] FOUR_MIB = new PeerDeflate(true, true).compress(new byte[4 << 20]);

    private static boolean send(InflationAllowances allowances, String address, byte[] message) {
        return InflationAllowanceTest.delivered(message, allowances.of(address), allowances.server());
    }

    @Test
    void oneAddressStreamingBombsLeavesOthersTheirMessages() {
        InflationAllowances allowances = new InflationAllowances(LIMIT);
        int attacker = 0;
        int victim = 0;
        for (int round = 0; round < 12; round++) {      // the attacker every round, the victims now and then
            attacker += send(allowances, "127.0.0.2", EIGHT_MIB) ? 1 : 0;
            attacker += send(allowances, "127.0.0.2", EIGHT_MIB) ? 1 : 0;
            if (round == 5 || round == 11) {      // about 3 MiB past the cap each: two fit one address's 8 MiB
                victim += send(allowances, "127.0.0.200", FOUR_MIB) ? 1 : 0;
                victim += send(allowances, "10.0.0." + round, FOUR_MIB) ? 1 : 0;
            }
        }
        assertTrue(attacker <= 2, "the streaming address got " + attacker + " of 24 past its own allowance");
        assertEquals(4, victim, "the other addresses' 4 MiB of zeros, a repeat sender's included");
    }

    @Test
    void manyAddressesTogetherAreHeldToTheServersAllowance() {
        InflationAllowances allowances = new InflationAllowances(LIMIT);
        int delivered = 0;
        for (int i = 0; i < 40; i++) {
            delivered += send(allowances, "127.0.1." + i, EIGHT_MIB) ? 1 : 0;
        }
        assertTrue(delivered <= InflationAllowances.ADDRESSES_AT_FULL_RATE + 1, delivered + " bombs of 40 addresses delivered");
        assertTrue(delivered >= InflationAllowances.ADDRESSES_AT_FULL_RATE - 1, delivered + " bombs of 40 addresses delivered");
    }

    @Test
    void anIpv6HostCountsByItsSlash64() {
        InflationAllowances allowances = new InflationAllowances(LIMIT);
        assertSame(allowances.of("[2001:db8:1:2::1]"), allowances.of("[2001:db8:1:2:ffff::7]"));
        assertNotEquals(InflationAllowances.keyOf("[2001:db8:1:2::1]"), InflationAllowances.keyOf("[2001:db8:1:3::1]"));
        assertSame(allowances.of("127.0.0.1"), allowances.of("127.0.0.1"));
        assertNotEquals(allowances.of("127.0.0.1"), allowances.of("127.0.0.2"));
        assertEquals((long) InflationAllowances.ADDRESSES_AT_FULL_RATE * LIMIT, allowances.server().available());
    }
}
