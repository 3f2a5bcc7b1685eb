package wsjava.testing;

import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The client's half of permessage-deflate for tests, written straight on java.util.zip (not on
 * the server's codec, so a shared bug cannot hide): compress what the client sends, inflate what
 * the server sends, each with or without context takeover.
 */
public final class PeerDeflate {

    private static final byte[] TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

    private Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    private Inflater inflater = new Inflater(true);
    private final boolean resetOutgoing;
    private final boolean resetIncoming;

    /**
     * @param clientNoContextTakeover the client starts each message it sends afresh
     * @param serverNoContextTakeover the server starts each message afresh
     */
    public PeerDeflate(boolean clientNoContextTakeover, boolean serverNoContextTakeover) {
        this.resetOutgoing = clientNoContextTakeover;
        this.resetIncoming = serverNoContextTakeover;
    }

    /** A message's compressed payload, tail removed (RFC 7692 section 7.2.1). */
    public byte[] compress(byte[] message) {
        deflater.setInput(message);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        do {
            n = deflater.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
            out.write(buf, 0, n);
        } while (n == buf.length);
        if (resetOutgoing) {
            deflater.reset();
        }
        byte[] all = out.toByteArray();
        for (int i = 0; i < 4; i++) {
            if (all[all.length - 4 + i] != TAIL[i]) {
                throw new AssertionError("a sync flush ends with 00 00 ff ff");
            }
        }
        return java.util.Arrays.copyOf(all, all.length - 4);
    }

    /** The message a compressed payload from the server holds. */
    public byte[] inflate(byte[] compressed) throws DataFormatException {
        byte[] input = new byte[compressed.length + 4];
        System.arraycopy(compressed, 0, input, 0, compressed.length);
        System.arraycopy(TAIL, 0, input, compressed.length, 4);
        inflater.setInput(input);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        while (true) {
            int n = inflater.inflate(buf);
            if (n == 0) {
                break;
            }
            out.write(buf, 0, n);
        }
        if (resetIncoming) {
            inflater.reset();
        }
        return out.toByteArray();
    }

    /** A deflate stream a few KiB long that inflates to {@code size} zero bytes: a decompression bomb. */
    public static byte[] bomb(int size) {
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
        d.setInput(new byte[size]);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }
}
