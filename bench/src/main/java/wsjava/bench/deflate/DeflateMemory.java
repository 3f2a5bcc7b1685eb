package wsjava.bench.deflate;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
                String agreed = handshake(s, port);
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

    private static String handshake(Socket s, int port) throws IOException {
        // The plain offer: unlike the echo client's, it lets the server keep an inflating context too.
        s.setTcpNoDelay(true);
        s.setSoTimeout(10_000);
        String request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n";
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        StringBuilder head = new StringBuilder();
        InputStream in = s.getInputStream();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the handshake");
            }
            head.append((char) b);
        }
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("sec-websocket-extensions:")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "";
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
