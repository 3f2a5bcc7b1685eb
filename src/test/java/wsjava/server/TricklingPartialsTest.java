package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * Adversarial review after issue 20: 60 connections each holding an unfinished 1 MB fragmented
 * message, kept alive by an empty continuation frame every 5 s, kept every other client's message
 * of 100 KB or more out for 45 s and more: messages within the budget never lost their room, however
 * slowly they came. Now, while others wait for room, a message that holds budget and receives
 * under 64 KiB in a second fails with 1008, and its memory goes back at once.
 */
@Timeout(120)
class TricklingPartialsTest {

    private static final long BUDGET = 1 << 20;
    private static final int PART = 100 * 1024;
    private static final int GOOD = 64 * 1024;

    @Test
    void messagesThatTrickleWhileOthersWaitGiveTheirRoomBack() throws Exception {
        ServerConfig config = new ServerConfig().port(0).maxMessageSize(1 << 20).maxFramePayload(1 << 20).inboundBudgetBytes(BUDGET);
        List<RawClient> tricklers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try (WebSocketServer server = new WebSocketServer(config, new EchoListener()).start()) {
            for (int i = 0; i < 30; i++) {
                RawClient c = RawClient.open(server.port());
                tricklers.add(c);
                Thread t = new Thread(() -> trickle(c), "trickler");
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
            Thread.sleep(500);
            try (RawClient good = RawClient.open(server.port())) {
                byte[] message = new byte[GOOD];
                long start = System.nanoTime();
                good.send(good.writer.frame(OpCode.BINARY, true, message, 0, GOOD));
                long total = 0;
                Frame f;
                do {
                    f = good.readFrame(60_000);
                    total += f.payload().length;
                } while (!f.fin());
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.println("a 64 KiB message beside 30 trickling partial messages came back in " + seconds + " s");
                assertEquals(GOOD, total);
                // Measured here: 19 s (56 s before the change). Room freed goes to the connections
                // waiting in line, tricklers included, so the wait still grows with them: fairness for a
                // new small message is not built yet, and the bound says only that the line now moves.
                assertTrue(seconds < 40, "a good client's message waited " + seconds + " s behind messages that trickle");
            }
        } finally {
            threads.forEach(Thread::interrupt);
            for (RawClient c : tricklers) {
                c.close();
            }
        }
    }

    /** The first 100 KiB of a message, then an empty continuation frame every 300 ms, never the end. */
    private static void trickle(RawClient c) {
        try {
            c.send(c.writer.frame(OpCode.BINARY, false, new byte[PART], 0, PART));
            byte[] empty = c.writer.frame(OpCode.CONTINUATION, false, new byte[0], 0, 0);
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(300);
                c.send(empty);
            }
        } catch (IOException | InterruptedException e) {
            // shed by the server, or the test is over
        }
    }
}
