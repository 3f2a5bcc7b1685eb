package wsjava.bench.tls;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import javax.net.ssl.SSLContext;
import wsjava.bench.BlockingLoad;
import wsjava.bench.BlockingUpgrade;
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
                BlockingUpgrade.upgrade(s, port, null);
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
