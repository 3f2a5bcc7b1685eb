package wsjava.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A server's port comes from below the ephemeral range, where outgoing connections never take it. */
class ListenPortTest {

    @Test
    void aPortIsBelowTheEphemeralRangeAndFreeToBind() throws Exception {
        int ephemeral = ListenPort.ephemeralStart();
        for (int i = 0; i < 20; i++) {
            int port = ListenPort.free();
            assertTrue(port < ephemeral, port + " is in the ephemeral range, from " + ephemeral);
            try (ServerSocket s = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"))) {
                assertTrue(s.isBound());
            }
        }
    }

    @Test
    void outgoingConnectionsNeverTakeIt() throws Exception {
        int port = ListenPort.free();
        List<Socket> clients = new ArrayList<>();
        try (ServerSocket target = new ServerSocket(0, 500, InetAddress.getByName("127.0.0.1"))) {
            for (int i = 0; i < 300; i++) {      // each takes an ephemeral local port
                Socket c = new Socket("127.0.0.1", target.getLocalPort());
                clients.add(c);
                assertTrue(c.getLocalPort() != port, "a client took the server's port " + port);
            }
            try (ServerSocket server = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"))) {
                assertTrue(server.isBound());
            }
        } finally {
            for (Socket c : clients) {
                c.close();
            }
        }
    }
}
