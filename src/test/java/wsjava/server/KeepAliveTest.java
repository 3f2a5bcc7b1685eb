package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/** The idle timeout closes the silent and only the silent; the acceptor survives 2^31 accepts. */
@Timeout(60)
class KeepAliveTest {

    @Test
    void anActiveClientIsNeverIdleClosedWhileASilentOneIs() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).idleTimeoutMillis(1_500), new EchoListener()).start();
        try (RawClient active = RawClient.open(server.port()); RawClient silent = RawClient.open(server.port())) {
            long end = System.currentTimeMillis() + 6_000;      // four idle timeouts long
            while (System.currentTimeMillis() < end) {
                active.send(active.writer.frame(OpCode.TEXT, true, new byte[] {'a'}, 0, 1));
                Frame echo = active.readFrame(10_000);
                assertTrue(echo != null && echo.opcode() == OpCode.TEXT, "an active client was closed: " + echo);
                Thread.sleep(250);
            }
            Frame close = silent.readFrame(10_000);
            assertTrue(close != null && close.opcode() == OpCode.CLOSE, "the silent client got " + close);
            assertEquals(1001, (close.payload()[0] & 0xFF) << 8 | (close.payload()[1] & 0xFF));
        } finally {
            server.stop();
        }
    }

    @Test
    void acceptingGoesOnPastTwoToTheThirtyOneConnections() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(2), new EchoListener()).start();
        try {
            Field lifecycle = WebSocketServer.class.getDeclaredField("lifecycle");
            lifecycle.setAccessible(true);
            Field acceptorField = ServerLifecycle.class.getDeclaredField("acceptor");
            acceptorField.setAccessible(true);
            Object acceptor = acceptorField.get(lifecycle.get(server));
            Field next = acceptor.getClass().getDeclaredField("nextLoop");
            next.setAccessible(true);
            next.setInt(acceptor, Integer.MAX_VALUE - 1);     // as after 2^31 - 1 accepts
            for (int i = 0; i < 4; i++) {
                try (RawClient c = RawClient.open(server.port())) {
                    c.send(c.writer.frame(OpCode.TEXT, true, new byte[] {'n'}, 0, 1));
                    assertEquals(OpCode.TEXT, c.readFrame(10_000).opcode(), "connection " + i + " after the counter wrapped");
                }
            }
        } finally {
            server.stop();
        }
    }
}
