package wsjava.bench.tls;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import javax.net.ssl.SSLContext;
import wsjava.bench.BlockingLoad;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;

/**
 * A closed-loop wss:// echo client, one blocking thread per connection over the JDK's SSLSocket:
 * each connection keeps one binary message in flight, masked once in advance, and compares every
 * echo with what it sent.
 */
final class TlsEchoClient {

    private TlsEchoClient() {
    }

    static BlockingLoad.Result run(SSLContext tls, int port, int connections, int size, double warmupSeconds, double measureSeconds) throws Exception {
        byte[] payload = new byte[size];
        new Random(size).nextBytes(payload);
        byte[] frame = new FrameWriter(Role.CLIENT, Integer.MAX_VALUE - 64, new Random(1)).frame(OpCode.BINARY, true, payload, 0, size);
        List<Socket> sockets = new ArrayList<>();
        List<BlockingLoad.RoundTrip> trips = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                Socket s = tls.getSocketFactory().createSocket("127.0.0.1", port);
                sockets.add(s);
                upgrade(s, port);
                trips.add(roundTrip(s, frame, payload));
            }
        } catch (IOException e) {
            for (Socket s : sockets) {
                s.close();
            }
            throw e;
        }
        return BlockingLoad.run(sockets, trips, warmupSeconds, measureSeconds);
    }

    private static void upgrade(Socket s, int port) throws IOException {
        s.setTcpNoDelay(true);
        s.setSoTimeout(10_000);
        String request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = s.getInputStream().read();
            if (b < 0) {
                throw new IOException("closed during the handshake");
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("refused: " + head.toString().lines().findFirst().orElse(""));
        }
    }

    /** Sends the frame and reads the echo's header and payload, compared with what was sent. */
    private static BlockingLoad.RoundTrip roundTrip(Socket s, byte[] frame, byte[] payload) throws IOException {
        byte[] echo = new byte[payload.length];
        OutputStream out = s.getOutputStream();
        DataInputStream in = new DataInputStream(s.getInputStream());
        return () -> {
            out.write(frame);
            out.flush();
            int b0 = in.readUnsignedByte();
            int b1 = in.readUnsignedByte();
            long length = b1 & 0x7F;
            if (length == 126) {
                length = in.readUnsignedShort();
            } else if (length == 127) {
                length = in.readLong();
            }
            if (length != payload.length || (b0 & 0x0F) != OpCode.BINARY) {
                throw new IOException("unexpected frame: opcode " + (b0 & 0x0F) + ", " + length + " bytes");
            }
            in.readFully(echo);
            long moved = frame.length + 2 + length;
            return Arrays.equals(echo, payload) ? moved : -moved;
        };
    }
}
