package wsjava.server;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/** struct sockaddr_in and sockaddr_in6, made from a Java address and read back as "ip:port". */
final class SocketAddresses {

    /** Room for either (sockaddr_in6 is 28 bytes). */
    static final int SIZE = 28;
    private static final ValueLayout.OfShort PORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private SocketAddresses() {
    }

    /** The mark of an any-address written as IPv6's (see {@link #write}). */
    private static final long DUAL_STACK = 1L << 62;

    /**
     * Writes {@code host}:{@code port} into {@code into}; returns its length (16 or 28) and the family
     * in the upper half. With {@code dualStack}, IPv4's any-address (0.0.0.0) is written as IPv6's
     * (::), for a socket that takes both, as NIO's does; {@link #dualStack(long)} then says so.
     */
    static long write(String host, int port, MemorySegment into, boolean dualStack) throws IOException {
        InetAddress address = InetAddress.getByName(host);
        byte[] bytes = address.getAddress();
        into.fill((byte) 0);
        into.set(PORT, 2, (short) port);
        if (dualStack && address.isAnyLocalAddress()) {
            into.set(ValueLayout.JAVA_SHORT, 0, (short) Libc.AF_INET6);        // in6addr_any: the zeros already there
            return DUAL_STACK | ((long) Libc.AF_INET6 << 32) | 28;
        }
        if (address instanceof Inet4Address) {
            into.set(ValueLayout.JAVA_SHORT, 0, (short) Libc.AF_INET);
            MemorySegment.copy(bytes, 0, into, ValueLayout.JAVA_BYTE, 4, 4);
            return ((long) Libc.AF_INET << 32) | 16;
        }
        into.set(ValueLayout.JAVA_SHORT, 0, (short) Libc.AF_INET6);
        MemorySegment.copy(bytes, 0, into, ValueLayout.JAVA_BYTE, 8, 16);
        into.set(ValueLayout.JAVA_INT, 24, ((java.net.Inet6Address) address).getScopeId());
        return ((long) Libc.AF_INET6 << 32) | 28;
    }

    /** The address family in {@link #write}'s result. */
    static int family(long written) {
        return (int) ((written >>> 32) & 0xFFFF);
    }

    /** Whether {@link #write}'s result is the any-address for both families. */
    static boolean dualStack(long written) {
        return (written & DUAL_STACK) != 0;
    }

    /** The port of a sockaddr_in or sockaddr_in6. */
    static int port(MemorySegment address) {
        return Short.toUnsignedInt(address.get(PORT, 2));
    }

    /** "ip:port" as NIO writes it (an IPv4-mapped IPv6 address as IPv4); "" for any other family. */
    static String text(MemorySegment address) {
        int family = address.get(ValueLayout.JAVA_SHORT, 0);
        byte[] bytes;
        if (family == Libc.AF_INET) {
            bytes = address.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE);
        } else if (family == Libc.AF_INET6) {
            bytes = address.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
        } else {
            return "";
        }
        try {
            return InetAddress.getByAddress(bytes).getHostAddress() + ":" + port(address);
        } catch (UnknownHostException e) {
            return "";      // only for a length other than 4 or 16
        }
    }
}
