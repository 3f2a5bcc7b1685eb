package wsjava.tls;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Just enough ASN.1 DER to wrap traditional private keys into PKCS#8 and to build a self-signed
 * certificate: definite-length encoding of the few types those need, and a reader of one level of
 * a structure.
 */
final class Der {

    static final int INTEGER = 0x02;
    static final int BIT_STRING = 0x03;
    static final int OCTET_STRING = 0x04;
    static final int NULL = 0x05;
    static final int OID = 0x06;
    static final int UTF8_STRING = 0x0C;
    static final int UTC_TIME = 0x17;
    static final int SEQUENCE = 0x30;
    static final int SET = 0x31;

    private Der() {
    }

    static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    static byte[] sequence(byte[]... parts) {
        return tlv(SEQUENCE, concat(parts));
    }

    static byte[] set(byte[]... parts) {
        return tlv(SET, concat(parts));
    }

    static byte[] integer(BigInteger value) {
        return tlv(INTEGER, value.toByteArray());
    }

    static byte[] nullValue() {
        return new byte[] {NULL, 0};
    }

    static byte[] octetString(byte[] value) {
        return tlv(OCTET_STRING, value);
    }

    static byte[] bitString(byte[] value) {
        byte[] content = new byte[value.length + 1];     // no unused bits
        System.arraycopy(value, 0, content, 1, value.length);
        return tlv(BIT_STRING, content);
    }

    static byte[] utf8(String value) {
        return tlv(UTF8_STRING, value.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] utcTime(String yymmddhhmmssZ) {
        return tlv(UTC_TIME, yymmddhhmmssZ.getBytes(StandardCharsets.US_ASCII));
    }

    /** A context-specific tag: constructed (explicit) or primitive (implicit). */
    static byte[] tagged(int number, boolean constructed, byte[] content) {
        return tlv((constructed ? 0xA0 : 0x80) | number, content);
    }

    static byte[] oid(String dotted) {
        String[] parts = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Integer.parseInt(parts[0]) * 40 + Integer.parseInt(parts[1]));
        for (int i = 2; i < parts.length; i++) {
            long arc = Long.parseLong(parts[i]);
            int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(arc) + 6) / 7);
            for (int g = groups - 1; g >= 0; g--) {
                out.write((int) ((arc >>> (7 * g)) & 0x7F) | (g > 0 ? 0x80 : 0));
            }
        }
        return tlv(OID, out.toByteArray());
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** The elements of a constructed value, each whole (tag, length and content). */
    static List<byte[]> elements(byte[] constructed) {
        int[] header = header(constructed, 0);
        List<byte[]> out = new ArrayList<>();
        int at = header[0];
        int end = header[0] + header[1];
        while (at < end) {
            int[] h = header(constructed, at);
            int total = h[0] - at + h[1];
            byte[] element = new byte[total];
            System.arraycopy(constructed, at, element, 0, total);
            out.add(element);
            at += total;
        }
        return out;
    }

    /** The content of a value (without its tag and length). */
    static byte[] content(byte[] value) {
        int[] h = header(value, 0);
        byte[] out = new byte[h[1]];
        System.arraycopy(value, h[0], out, 0, h[1]);
        return out;
    }

    /** {where the content starts, its length} for the value at {@code at}. */
    private static int[] header(byte[] der, int at) {
        if (at + 2 > der.length) {
            throw new IllegalArgumentException("truncated DER");
        }
        int length = der[at + 1] & 0xFF;
        int start = at + 2;
        if (length >= 0x80) {
            int bytes = length & 0x7F;
            if (bytes == 0 || bytes > 4 || start + bytes > der.length) {
                throw new IllegalArgumentException("unsupported DER length");
            }
            length = 0;
            for (int i = 0; i < bytes; i++) {
                length = length << 8 | (der[start + i] & 0xFF);
            }
            start += bytes;
        }
        if (length < 0 || start + length > der.length) {
            throw new IllegalArgumentException("DER length past the end");
        }
        return new int[] {start, length};
    }
}
