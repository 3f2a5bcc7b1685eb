package wsjava.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import wsjava.mask.Masker;
import wsjava.protocol.FrameWriter;

/**
 * What the hardening tests attack with: masked frames of any shape (RSV1 and FIN as the test
 * likes), compressed payloads of a chosen inflation ratio, and upgraded sockets that read nothing
 * (a tiny receive buffer, so what the server sends backs up on its side at once).
 */
public final class AttackFrames {

    private AttackFrames() {
    }

    /** One masked client frame. */
    public static byte[] frame(boolean fin, boolean rsv1, int opcode, byte[] payload) {
        int key = new Random(payload.length).nextInt() | 1;
        byte[] frame = new byte[FrameWriter.headerSize(payload.length, true) + payload.length];
        int header = FrameWriter.writeHeader(frame, 0, fin, rsv1, opcode, payload.length, true, key);
        Masker.mask(payload, 0, frame, header, payload.length, key, 0);
        return frame;
    }

    /** {@code count} copies of {@code frame} back to back. */
    public static byte[] repeated(byte[] frame, int count) {
        byte[] block = new byte[frame.length * count];
        for (int i = 0; i < count; i++) {
            System.arraycopy(frame, 0, block, i * frame.length, frame.length);
        }
        return block;
    }

    /** Raw DEFLATE of {@code data}, sync-flushed, the 00 00 ff ff tail removed (a compressed message's payload). */
    public static byte[] deflate(byte[] data) {
        Deflater deflater = new Deflater(9, true);
        deflater.setInput(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[64 * 1024];
        int n;
        do {
            n = deflater.deflate(chunk, 0, chunk.length, Deflater.SYNC_FLUSH);
            out.write(chunk, 0, n);
        } while (n == chunk.length);
        deflater.end();
        byte[] z = out.toByteArray();
        return Arrays.copyOf(z, z.length - 4);
    }

    /** ASCII text of {@code size} bytes: runs of 'a' with a random letter every {@code every} bytes (more often: less compressible). */
    public static byte[] text(int size, int every) {
        Random random = new Random(size + every);
        byte[] text = new byte[size];
        Arrays.fill(text, (byte) 'a');
        for (int i = 0; i < size; i += every) {
            text[i] = (byte) ('a' + random.nextInt(26));
        }
        return text;
    }

    /**
     * An upgraded socket with a small receive buffer, which the test never reads: the server's answers
     * back up. Not smaller than loopback's 64 KiB segment: with 4 KiB, Linux dropped segments under
     * load and backed the retransmits off for tens of seconds, so the client, not the server, stopped
     * the flood (5 of 120 runs of the ping flood under load; none of 80 with 64 KiB).
     */
    public static Socket nonReading(int port, String extraHeaders) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(64 * 1024);
        s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        s.setSoTimeout(30_000);
        s.getOutputStream().write(RawClient.request("/", extraHeaders).getBytes(StandardCharsets.ISO_8859_1));
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the upgrade");
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("no upgrade: " + head);
        }
        return s;
    }
}
