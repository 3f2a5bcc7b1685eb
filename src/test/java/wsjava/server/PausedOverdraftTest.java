package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * Adversarial review of d017180 (attack2, finding 2): {@code check(now, readingPeer)} restarts the
 * progress window whenever the server does not read the connection, and an application's
 * {@code suspendReading()} is one of those states. So a connection paused while it holds the
 * overdraft keeps it for as long as the pause lasts, its memory past the limit too, and every other
 * client whose message needs room waits for good: the pause of one connection stops all of them.
 * Before d017180 the holder, receiving nothing while others waited, gave the overdraft up (1008).
 */
@Timeout(60)
class PausedOverdraftTest {

    private static final long BUDGET = 1 << 20;

    @Test
    void aPausedConnectionDoesNotKeepTheOverdraftFromEveryoneElse() throws Exception {
        CopyOnWriteArrayList<WebSocketConnection> opened = new CopyOnWriteArrayList<>();
        EchoListener echo = new EchoListener();
        WebSocketListener listener = new WebSocketListener() {
            @Override public void onOpen(WebSocketConnection c) { opened.add(c); }
            @Override public void onText(WebSocketConnection c, String text) { echo.onText(c, text); }
            @Override public void onBinary(WebSocketConnection c, byte[] data) { echo.onBinary(c, data); }
            @Override public void onBinary(WebSocketConnection c, ByteBuffer message) { echo.onBinary(c, message); }
        };
        ServerConfig config = new ServerConfig().port(0).inboundBudgetBytes(BUDGET).maxMessageSize(4 << 20).maxFramePayload(4 << 20);
        try (WebSocketServer server = new WebSocketServer(config, listener).start();
             RawClient holder = RawClient.open(server.port())) {
            byte[] big = holder.writer.frame(OpCode.BINARY, true, new byte[3 << 20], 0, 3 << 20);
            holder.send(Arrays.copyOf(big, 2 << 20));          // two thirds of a 3 MiB message: past the budget, with the overdraft
            long deadline = System.currentTimeMillis() + 10_000;
            while (server.inboundBufferedBytes() < (2 << 20) && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            System.out.println("holder took " + server.inboundBufferedBytes() + " bytes of a " + BUDGET + "-byte budget");
            opened.get(0).suspendReading();                    // the application pauses it (its own back-pressure, say)
            Thread.sleep(300);
            try (RawClient good = RawClient.open(server.port())) {
                byte[] message = new byte[600 * 1024];
                long start = System.nanoTime();
                good.send(good.writer.frame(OpCode.BINARY, true, message, 0, message.length));
                long echoed = 0;
                try {
                    while (echoed < message.length) {
                        Frame f = good.readFrame(15_000);
                        assertNotNull(f, "closed");
                        echoed += f.payload().length;
                    }
                } catch (SocketTimeoutException e) {
                    // reported below
                }
                System.out.println("good client's 600 KiB echoed: " + echoed + " bytes after " + (System.nanoTime() - start) / 1e9
                        + " s; budget used " + server.inboundBufferedBytes());
                assertEquals(message.length, echoed, "a good client's message waited 15 s behind a paused overdraft holder");
            }
        }
    }
}
