package wsjava.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A child process that holds many idle WebSocket connections for a test, so that the test's own
 * JVM needs descriptors only for the server's side. Usage: {@code HeldConnections PORT COUNT TOPICS};
 * connection i upgrades to {@code /?topic=t<i mod TOPICS>}. Prints "held N" once all are open, then
 * holds them until its standard input closes.
 */
public final class HeldConnections {

    private HeldConnections() {
    }

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        int count = Integer.parseInt(args[1]);
        int topics = Integer.parseInt(args[2]);
        List<SocketChannel> held = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            held.add(open(port, "/?topic=t" + (i % topics)));
        }
        System.out.println("held " + held.size());
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold until the parent closes our input (or dies)
        }
        for (SocketChannel c : held) {
            c.close();
        }
    }

    private static SocketChannel open(int port, String path) throws IOException {
        SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
        c.write(ByteBuffer.wrap(RawClient.request(path, "").getBytes(StandardCharsets.ISO_8859_1)));
        ByteBuffer head = ByteBuffer.allocate(1024);
        while (!new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
            if (c.read(head) < 0 || !head.hasRemaining()) {
                throw new IOException("no upgrade answer on " + path);
            }
        }
        if (!new String(head.array(), 0, 12, StandardCharsets.ISO_8859_1).equals("HTTP/1.1 101")) {
            throw new IOException("refused: " + new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1));
        }
        return c;
    }
}
