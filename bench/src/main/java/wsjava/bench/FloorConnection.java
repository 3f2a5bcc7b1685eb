package wsjava.bench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;

/**
 * One connection of the bare Java floors ({@link NioFloor}, {@code bench/java22/FfmFloor.java} and
 * {@code UringFloor.java}): {@code bench/c/wsfloor.c}'s handshake and framing, line for line, over
 * the buffer its transport hands it (on epoll one shared by all connections, on io_uring one per
 * connection). All three floors use this class, so they differ only in how bytes reach the kernel. Nothing here allocates per message: a frame is unmasked where it lies
 * and echoed as its bytes arrive; a header cut by the end of a read (at most 13 bytes) is carried.
 * Like wsfloor.c it is a measuring stick on loopback, not a server for hostile clients.
 */
public final class FloorConnection {

    /** The shared buffer's size: room for a carried header, then one read (uSockets' receive buffer). */
    public static final int BUFFER = 14 + 512 * 1024;
    /** The request head's limit, handshake only. */
    public static final int HEAD_LIMIT = 8192;
    public static final byte[] REFUSED = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END_OF_HEAD = {'\r', '\n', '\r', '\n'};

    private byte[] head = new byte[HEAD_LIMIT];     // the request head while upgrading, else null
    private int headLength;
    private boolean closing;                        // a close frame came: close once all of it has gone out
    private final byte[] carry = new byte[14];
    private int carried;
    private long remaining;                         // payload bytes of the current frame still to come
    private final byte[] mask = new byte[4];
    private int maskAt;
    private boolean discard;                        // the current frame is a pong: not echoed
    private int outStart;
    private int afterHead;                          // bytes that came after the request head
    private ByteBuffer pending;                     // output (position to limit) while some is waiting, else null
    private ByteBuffer output;                      // the connection's output buffer, kept once needed

    /** The shared buffer, in the byte order the unmasking words assume. */
    public static ByteBuffer buffer(ByteBuffer direct) {
        return direct.order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Still reading the request head. */
    public boolean upgrading() {
        return head != null;
    }

    /** How many head bytes the next read may bring. */
    public int headRoom() {
        return HEAD_LIMIT - 1 - headLength;
    }

    /** The whole close frame has been echoed: nothing more is read. */
    public boolean closed() {
        return closing && remaining == 0;
    }

    /**
     * Adds the {@code n} bytes read into {@code buffer[0, n)} to the request head. Returns null while
     * it is incomplete (the caller closes when {@link #headRoom()} is 0), {@link #REFUSED}'s bytes for
     * a head that is no GET with a key, else the 101 answer, with the bytes after the head moved to
     * {@code buffer[0, n')}, n' being {@link #leftover()}.
     */
    public byte[] upgrade(ByteBuffer buffer, int n) {
        for (int i = 0; i < n; i++) {
            head[headLength + i] = buffer.get(i);
        }
        int searchFrom = Math.max(0, headLength - 3);
        headLength += n;
        int end = indexOf(head, headLength, END_OF_HEAD, searchFrom);
        if (end < 0) {
            return null;
        }
        String request = new String(head, 0, end, StandardCharsets.ISO_8859_1);
        String key = key(request);
        if (!request.startsWith("GET ") || key == null) {
            return REFUSED;
        }
        afterHead = headLength - (end + 4);
        for (int i = 0; i < afterHead; i++) {
            buffer.put(i, head[end + 4 + i]);
        }
        head = null;
        return ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "
                + accept(key) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** After {@link #upgrade} answered 101: how many bytes after the head it moved to the buffer's start. */
    public int leftover() {
        return afterHead;
    }

    /** Before a read: copies the carried header bytes to the buffer's start; returns their count (where the read goes). */
    public int restoreCarry(ByteBuffer buffer) {
        buffer.clear();                             // a write may have left a limit below the carry
        for (int i = 0; i < carried; i++) {
            buffer.put(i, carry[i]);
        }
        return carried;
    }

    /** How many carried header bytes {@link #restoreCarry} put at the buffer's start (where the last read went). */
    public int carried() {
        return carried;
    }

    /** Output the socket did not take (position to limit), kept across events; null when there is none. */
    public ByteBuffer pending() {
        return pending;
    }

    /**
     * Keeps {@code buf[from, from + len)} after what is pending, in a buffer kept for the connection
     * and grown only when too small (as wsfloor.c's realloc): a new direct buffer per short write
     * would cost the floors more than the write itself.
     */
    public void keep(ByteBuffer buf, int from, int len) {
        int held = pending == null ? 0 : pending.remaining();
        if (output == null || output.capacity() < held + len) {
            ByteBuffer grown = ByteBuffer.allocateDirect(held + len);
            if (pending != null) {
                grown.put(pending);
            }
            output = grown;
        } else if (pending != null) {
            output.compact();
        } else {
            output.clear();
        }
        buf.limit(from + len).position(from);
        output.put(buf);
        buf.clear();                                // absolute access in the shared buffer stays unlimited
        output.flip();
        pending = output;
    }

    /** All that was pending has gone out. */
    public void sent() {
        pending = null;
    }

    /** Where the output of the last {@link #reframe} starts in the buffer. */
    public int outStart() {
        return outStart;
    }

    /**
     * Turns the client's frames in {@code buf[0, len)} into the server's, in place (wsfloor.c's
     * reframe): each header loses its mask key, a ping becomes a pong, pongs are dropped, payloads
     * are unmasked. {@code buf} starts with what {@link #restoreCarry} put back. Returns the output's
     * length (from {@link #outStart()}), or -1 on a protocol error.
     */
    public int reframe(ByteBuffer buf, int len) {
        carried = 0;
        int r = 0;
        int w = 0;
        boolean started = false;
        while (r < len && !closed()) {
            if (remaining == 0) {                                  // a frame header
                int avail = len - r;
                if (avail < 2) {
                    return carry(buf, r, len, started, w);
                }
                int b0 = buf.get(r) & 0xFF;
                int b1 = buf.get(r + 1) & 0xFF;
                if ((b1 & 0x80) == 0) {
                    return -1;                                     // a client's frame must be masked
                }
                int l7 = b1 & 0x7F;
                int extra = l7 == 126 ? 2 : l7 == 127 ? 8 : 0;
                int header = 2 + extra + 4;
                if (avail < header) {
                    return carry(buf, r, len, started, w);
                }
                long length = l7;
                if (extra > 0) {
                    length = 0;
                    for (int i = 0; i < extra; i++) {
                        length = length << 8 | (buf.get(r + 2 + i) & 0xFF);
                    }
                    if (length < 0) {
                        return -1;
                    }
                }
                int opcode = b0 & 0x0F;
                for (int i = 0; i < 4; i++) {
                    mask[i] = buf.get(r + header - 4 + i);
                }
                maskAt = 0;
                remaining = length;
                discard = opcode == 0xA;
                closing |= opcode == 0x8;
                if (opcode == 0x9) {
                    b0 = (b0 & 0xF0) | 0xA;
                }
                if (!discard) {
                    if (!started) {
                        w = r + 4;                                 // the header just before the payload
                        outStart = w;
                        started = true;
                    }
                    long lengthBytes = extra == 8 ? buf.getLong(r + 2) : extra == 2 ? buf.getShort(r + 2) : 0;
                    buf.put(w, (byte) b0);
                    buf.put(w + 1, (byte) (b1 & 0x7F));
                    if (extra == 8) {
                        buf.putLong(w + 2, lengthBytes);
                    } else if (extra == 2) {
                        buf.putShort(w + 2, (short) lengthBytes);
                    }
                    w += 2 + extra;
                }
                r += header;
            }
            int take = (int) Math.min(remaining, len - r);
            if (!discard) {
                if (!started) {
                    w = r;
                    outStart = w;
                    started = true;
                }
                unmask(buf, w, r, take);
                w += take;
            }
            r += take;
            remaining -= take;
            maskAt = (maskAt + take) & 3;
        }
        return started ? w - outStart : 0;
    }

    private int carry(ByteBuffer buf, int r, int len, boolean started, int w) {
        carried = len - r;
        for (int i = 0; i < carried; i++) {
            carry[i] = buf.get(r + i);
        }
        return started ? w - outStart : 0;
    }

    /** buf[dst + i] = buf[src + i] ^ mask, from mask position maskAt; dst <= src, so moving forward is safe. */
    private void unmask(ByteBuffer buf, int dst, int src, int n) {
        long word = 0;
        for (int i = 7; i >= 0; i--) {
            word = word << 8 | (mask[(maskAt + i) & 3] & 0xFF);
        }
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            buf.putLong(dst + i, buf.getLong(src + i) ^ word);
        }
        for (; i < n; i++) {
            buf.put(dst + i, (byte) (buf.get(src + i) ^ mask[(maskAt + i) & 3]));
        }
    }

    private static String key(String request) {
        for (String line : request.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("sec-websocket-key:")) {
                String key = line.substring(18).trim();
                return key.isEmpty() ? null : key;
            }
        }
        return null;
    }

    private static String accept(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1")
                    .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }

    private static int indexOf(byte[] in, int length, byte[] what, int from) {
        for (int i = from; i + what.length <= length; i++) {
            int j = 0;
            while (j < what.length && in[i + j] == what[j]) {
                j++;
            }
            if (j == what.length) {
                return i;
            }
        }
        return -1;
    }
}
