package wsjava.bench.attack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A WL-style server reads no request head while its event queue is full, until its kernel has
 * caught up: an attack's client must wait for that upgrade as long as it was told to, not 10 s.
 */
@Timeout(60)
class DeferredUpgradeTest {

    private static final long DEFER_MILLIS = 11_000;

    @Test
    void anUpgradeDeferredPastTenSecondsIsWaitedFor() throws Exception {
        try (ServerSocket listener = new ServerSocket(0)) {
            Thread server = answerLate(listener, 2);
            assertThrows(SocketTimeoutException.class, () -> RawWs.open(listener.getLocalPort(), false), "the default wait is 10 s");
            try (RawWs ws = RawWs.open(listener.getLocalPort(), false, 20_000)) {
                assertEquals(10_000, ws.socket.getSoTimeout(), "after the upgrade, reads time out as before");
            }
            server.join(5_000);
        }
    }

    /** Reads {@code count} request heads, one at a time, and answers each with a 101 after {@link #DEFER_MILLIS}. */
    private static Thread answerLate(ServerSocket listener, int count) {
        Thread t = new Thread(() -> {
            for (int i = 0; i < count; i++) {
                try (Socket s = listener.accept()) {
                    InputStream in = s.getInputStream();
                    StringBuilder head = new StringBuilder();
                    while (head.indexOf("\r\n\r\n") < 0) {
                        int b = in.read();
                        if (b < 0) {
                            break;
                        }
                        head.append((char) b);
                    }
                    Thread.sleep(DEFER_MILLIS);
                    s.getOutputStream().write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    s.getInputStream().read();    // until the client leaves
                } catch (Exception e) {
                    // the client gave up: the next one
                }
            }
        }, "late-upgrader");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
