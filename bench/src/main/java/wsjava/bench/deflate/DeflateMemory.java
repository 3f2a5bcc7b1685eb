package wsjava.bench.deflate;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import wsjava.bench.BlockingUpgrade;
import wsjava.bench.IdleConnections;

/**
 * What many connections with permessage-deflate agreed cost a server: it opens {@code count}
 * connections offering plain {@code permessage-deflate} (so the server may keep both zlib streams),
 * optionally has each exchange one compressed message (which makes the streams), and reads the
 * server's resident memory while all are held (after an optional wait, to see idle streams freed).
 */
final class DeflateMemory {

    private DeflateMemory() {
    }

    /** Server RSS in KiB while holding the connections; the count actually held goes in {@code held[0]}. */
    static long hold(int port, int count, boolean exchangeOne, int waitMillis, long serverPid, int[] held) throws IOException, InterruptedException {
        List<Socket> open = new ArrayList<>(count);
        byte[] message = WlExpressionText.of(4096, 11).getBytes(StandardCharsets.UTF_8);
        byte[] frame = DeflateEchoClient.compressedFrame(message);
        try {
            for (int i = 0; i < count; i++) {
                Socket s;
                try {
                    s = new Socket("127.0.0.1", port);
                } catch (IOException e) {
                    break;
                }
                open.add(s);
                String agreed = BlockingUpgrade.upgrade(s, port, "permessage-deflate");   // lets the server keep an inflating context too
                if (!agreed.startsWith("permessage-deflate")) {
                    throw new IOException("deflate not agreed: " + agreed);
                }
                if (exchangeOne) {
                    s.getOutputStream().write(frame);
                    readOneMessage(s.getInputStream());
                }
            }
            Thread.sleep(500 + waitMillis);
            held[0] = open.size();
            return IdleConnections.rssKiB(serverPid);
        } finally {
            for (Socket s : open) {
                s.close();
            }
        }
    }

    /** Reads one unfragmented server frame (the echo), whatever its size. */
    private static void readOneMessage(InputStream in) throws IOException {
        int b0 = in.read();
        int b1 = in.read();
        if (b0 < 0 || b1 < 0) {
            throw new IOException("closed before the echo");
        }
        long len = b1 & 0x7F;
        if (len == 126) {
            len = (in.read() << 8) | in.read();
        } else if (len == 127) {
            len = 0;
            for (int i = 0; i < 8; i++) {
                len = (len << 8) | in.read();
            }
        }
        if (in.readNBytes((int) len).length != len) {
            throw new IOException("echo cut short");
        }
    }
}
