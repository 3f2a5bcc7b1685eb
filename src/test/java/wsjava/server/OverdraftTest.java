package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.AttackFrames;
import wsjava.testing.RawClient;
import wsjava.options.ServerOptions;

/**
 * Issue 20, item 4: a connection that sent a byte every 0.4 s kept the budget's overdraft for good
 * (being heard from within a second was enough), and a good client's 4 MiB message waited for
 * more than a minute. The overdraft now needs progress at a minimum rate and goes only to a
 * connection with input in hand; a partial message whose sender goes silent is failed with 1008.
 */
@Timeout(120)
class OverdraftTest {

    private static final long BUDGET = 4 << 20;

    @Test
    void aTricklerCannotKeepTheOverdraftFromAGoodClient() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).inboundBudgetBytes(BUDGET), new EchoListener()).start();
        List<RawClient> stallers = new ArrayList<>();
        Thread trickle = null;
        try {
            byte[] compressed = AttackFrames.deflate(AttackFrames.text(6 << 20, 256));
            byte[] half = AttackFrames.frame(false, true, OpCode.TEXT, Arrays.copyOf(compressed, compressed.length * 9 / 10));
            for (int i = 0; i < 3; i++) {      // they fill the budget and stall
                RawClient c = RawClient.openOffering(server.port(), "permessage-deflate; client_no_context_takeover");
                c.send(half);
                stallers.add(c);
            }
            Thread.sleep(1_000);
            RawClient trickler = RawClient.open(server.port());
            stallers.add(trickler);
            byte[] slow = trickler.writer.frame(OpCode.BINARY, true, new byte[1 << 20], 0, 1 << 20);
            trickler.send(Arrays.copyOf(slow, 1000));
            trickle = new Thread(() -> {
                try {
                    for (int i = 1000; i < slow.length; i++) {
                        trickler.send(new byte[] {slow[i]});
                        Thread.sleep(400);
                    }
                } catch (Exception e) {
                    // the test is over, or the server closed it
                }
            });
            trickle.setDaemon(true);
            trickle.start();
            Thread.sleep(3_000);                // the trickler has had every chance to take the overdraft
            long start = System.nanoTime();
            try (RawClient good = RawClient.open(server.port())) {
                byte[] message = new byte[2 << 20];
                good.send(good.writer.frame(OpCode.BINARY, true, message, 0, message.length));
                long echoed = 0;
                while (echoed < message.length) {
                    Frame f = good.readFrame(30_000);
                    echoed += f.payload().length;
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds < 15, "the good client's 2 MiB message took " + seconds + " s");
            // The halves that never moved while others waited are failed and their room given back
            // (before that rule, the trickler was failed once it took memory past the budget).
            for (RawClient staller : stallers.subList(0, 3)) {
                Frame close = staller.readFrame(15_000);
                assertEquals(OpCode.CLOSE, close.opcode(), "a half message that did not move while others waited is failed");
                assertEquals(1008, (close.payload()[0] & 0xFF) << 8 | (close.payload()[1] & 0xFF));
            }
        } finally {
            if (trickle != null) {
                trickle.interrupt();
            }
            for (RawClient c : stallers) {
                c.close();
            }
            server.stop();
        }
    }

    @Test
    void aPartialMessageWhoseSenderFallsSilentIsFailedWith1008() throws Exception {
        ServerConfig config = new ServerConfig().port(0);
        ServerOptions.apply(config, "partial-message-timeout", "1000");
        WebSocketServer server = new WebSocketServer(config, new EchoListener()).start();
        try (RawClient silent = RawClient.open(server.port())) {
            byte[] frame = silent.writer.frame(OpCode.BINARY, true, new byte[100_000], 0, 100_000);
            silent.send(Arrays.copyOf(frame, 50_000));
            Frame f = silent.readFrame(10_000);
            assertEquals(OpCode.CLOSE, f.opcode());
            assertEquals(1008, (f.payload()[0] & 0xFF) << 8 | (f.payload()[1] & 0xFF));
            long deadline = System.currentTimeMillis() + 10_000;
            while (server.inboundBufferedBytes() >= 64 * 1024 && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(server.inboundBufferedBytes() < 64 * 1024, "its buffer is given back: " + server.inboundBufferedBytes());
        } finally {
            server.stop();
        }
    }
}
