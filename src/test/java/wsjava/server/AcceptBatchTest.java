package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A burst of connections must not keep the first I/O thread in its accept loop: one pass accepts a
 * bounded number, the rest wait in the kernel's queue for the next pass, after that thread's own
 * connections (a bystander's echo among them) had their turn.
 */
@Timeout(30)
class AcceptBatchTest {

    @Test
    void onePassAcceptsABoundedNumberAndLeavesTheRestPending() throws Exception {
        int pending = 3 * Acceptor.ACCEPTS_PER_PASS;
        WebSocketServer server = new WebSocketServer(new ServerConfig(), new WebSocketListener() { });
        List<Socket> clients = new ArrayList<>();
        List<ConnectionSocket> leftover = new ArrayList<>();
        try (NioListener listening = new NioListener("127.0.0.1", 0, 1024)) {
            for (int i = 0; i < pending; i++) {       // connected in the kernel's queue, none accepted yet
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", listening.port()), 5_000);
                clients.add(s);
            }
            ServerLifecycle lifecycle = new ServerLifecycle(server, new ServerConfig(), new ConnectionRegistry(new ServerStats()));
            IoLoop loop = new SelectorLoop(server, lifecycle, 0);     // not started: what it is handed just waits in its tasks
            new Acceptor(server, lifecycle, listening, List.of(loop)).onAcceptable();

            ConnectionSocket c;
            while ((c = listening.accept()) != null) {
                leftover.add(c);
            }
            assertEquals(pending - Acceptor.ACCEPTS_PER_PASS, leftover.size(), "left in the kernel's queue for the next pass");
            loop.discard();
        } finally {
            for (ConnectionSocket c : leftover) {
                c.close();
            }
            for (Socket s : clients) {
                s.close();
            }
        }
    }
}
