package wsjava.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;
import wsjava.protocol.InflationAllowance;

/**
 * What compressed messages may inflate past the ratio cap: each client address has an allowance of
 * one message limit, refilled over {@link InflationAllowance#REFILL_SECONDS}, and all of them
 * together draw from the server's, {@link #ADDRESSES_AT_FULL_RATE} times as large. One address
 * streaming such messages is held to its own rate and leaves the rest of the server's to others;
 * many addresses at once are still held to the server's, which bounds the work they all cost.
 * An IPv6 client counts by its /64, as one host's addresses usually share it.
 */
final class InflationAllowances {

    /** How many addresses may draw at their full rate at once before the server's allowance runs out. */
    static final int ADDRESSES_AT_FULL_RATE = 4;
    /** Addresses remembered: past this many, the one that drew longest ago starts again with a full allowance. */
    static final int ADDRESSES_REMEMBERED = 4096;

    private final long messageLimit;
    private final InflationAllowance server;
    private final Map<String, InflationAllowance> byAddress = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, InflationAllowance> eldest) {
            return size() > ADDRESSES_REMEMBERED;
        }
    };

    InflationAllowances(long messageLimit) {
        this.messageLimit = messageLimit;
        long whole = ADDRESSES_AT_FULL_RATE * messageLimit;
        this.server = new InflationAllowance(whole, whole / InflationAllowance.REFILL_SECONDS);
    }

    /** The server's allowance, which every address's draw also takes from. */
    InflationAllowance server() {
        return server;
    }

    /** The allowance of the client at {@code address} (as {@code ip} or {@code [ipv6]}), made when first asked. */
    synchronized InflationAllowance of(String address) {
        return byAddress.computeIfAbsent(keyOf(address), k -> InflationAllowance.forMessageLimit(messageLimit));
    }

    /** The address itself, or for IPv6 its first 64 bits. */
    static String keyOf(String address) {
        String bare = address.startsWith("[") && address.endsWith("]") ? address.substring(1, address.length() - 1) : address;
        if (bare.indexOf(':') < 0) {
            return bare;
        }
        try {
            byte[] bytes = InetAddress.getByName(bare).getAddress();      // a literal: no lookup
            if (bytes.length != 16) {
                return bare;
            }
            StringBuilder prefix = new StringBuilder("v6:");
            for (int i = 0; i < 8; i++) {
                prefix.append(String.format("%02x", bytes[i]));
            }
            return prefix.toString();
        } catch (UnknownHostException | SecurityException e) {
            return bare;
        }
    }
}
