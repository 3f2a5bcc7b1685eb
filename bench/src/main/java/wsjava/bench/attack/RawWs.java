package wsjava.bench.attack;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;
import wsjava.mask.Masker;
import wsjava.protocol.FrameWriter;

/**
 * An attacker's WebSocket connection over a blocking socket: it completes an upgrade (offering
 * permessage-deflate when asked) and then writes whatever frames the attack builds, masked as a
 * client must. It reads only when the attack wants it to, which is the point of most attacks.
 */
final class RawWs implements Closeable {

    final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private long sent;

    private RawWs(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
    }

    /** Connects to 127.0.0.1 and upgrades (offering permessage-deflate without client context takeover); throws unless the answer is 101. */
    static RawWs open(int port, boolean offerDeflate) throws IOException {
        return open(port, offerDeflate ? "permessage-deflate; client_no_context_takeover" : null);
    }

    /** Upgrades offering permessage-deflate with context takeover both ways: the server may keep a zlib stream. */
    static RawWs openWithContextTakeover(int port) throws IOException {
        return open(port, "permessage-deflate");
    }

    /**
     * A wss client from {@code from} (trusting any certificate: the attacked server's is self-signed),
     * or a plain one when {@code tls} is false.
     */
    static RawWs open(int port, boolean tls, String from) throws IOException {
        if (!tls) {
            return open(port, false);
        }
        Socket s = TlsHello.trustAll().getSocketFactory().createSocket("127.0.0.1", port, java.net.InetAddress.getByName(from), 0);
        s.setSoTimeout(10_000);
        ((javax.net.ssl.SSLSocket) s).startHandshake();
        return upgrade(s, null);
    }

    private static RawWs open(int port, String extensionOffer) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        return upgrade(s, extensionOffer);
    }

    private static RawWs upgrade(Socket s, String extensionOffer) throws IOException {
        s.setTcpNoDelay(true);
        s.setSoTimeout(10_000);
        RawWs ws = new RawWs(s);
        try {
            ws.write(upgradeRequest(extensionOffer == null ? "" : "Sec-WebSocket-Extensions: " + extensionOffer + "\r\n"));
            String head = ws.readHead();
            if (!head.startsWith("HTTP/1.1 101")) {
                throw new IOException("no upgrade: " + head.lines().findFirst().orElse(head));
            }
        } catch (IOException e) {
            s.close();
            throw e;
        }
        return ws;
    }

    static byte[] upgradeRequest(String extraHeaders) {
        byte[] nonce = new byte[16];
        ThreadLocalRandom.current().nextBytes(nonce);
        return ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                + Base64.getEncoder().encodeToString(nonce) + "\r\nSec-WebSocket-Version: 13\r\n" + extraHeaders + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Reads a response head byte by byte (nothing after it is taken). */
    String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the handshake: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** One masked client frame. */
    static byte[] frame(boolean fin, boolean rsv1, int opcode, byte[] payload) {
        int key = ThreadLocalRandom.current().nextInt();
        byte[] frame = new byte[FrameWriter.headerSize(payload.length, true) + payload.length];
        int header = FrameWriter.writeHeader(frame, 0, fin, rsv1, opcode, payload.length, true, key);
        Masker.mask(payload, 0, frame, header, payload.length, key, 0);
        return frame;
    }

    /** {@code count} copies of {@code frame} back to back: one write sends many frames. */
    static byte[] repeated(byte[] frame, int count) {
        byte[] block = new byte[frame.length * count];
        for (int i = 0; i < count; i++) {
            System.arraycopy(frame, 0, block, i * frame.length, frame.length);
        }
        return block;
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        sent += bytes.length;
    }

    InputStream input() {
        return in;
    }

    /** Bytes this connection has written, the upgrade request included. */
    long sent() {
        return sent;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // an attacker leaving
        }
    }
}
