package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.OpCode;
import wsjava.testing.AttackFrames;
import wsjava.testing.RawClient;

/**
 * Issue 20, item 1: floods of tiny frames from clients that never read what comes back. A pong
 * used to be queued per ping, each counted as its 2 wire bytes though it cost about 100, so the
 * 1 MiB read pause let about 50 MiB pile up per connection; echoes of 1-byte messages the same.
 */
@Timeout(120)
class SmallFrameFloodTest {

    @Test
    void pingsFromAClientThatNeverReadsQueueOnePongNotOnePerPing() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), new EchoListener()).start();
        try (Socket attacker = AttackFrames.nonReading(server.port(), "")) {
            byte[] block = AttackFrames.repeated(AttackFrames.frame(true, false, OpCode.PING, new byte[0]), 10_000);
            OutputStream out = attacker.getOutputStream();
            long before = server.stats().bytesIn();
            long sent = 500L * block.length;         // 5,000,000 pings, 30 MB: their pongs overflow the socket buffers
            Thread sender = new Thread(() -> {
                try {
                    for (int i = 0; i < 500; i++) {
                        out.write(block);
                    }
                } catch (Exception e) {
                    // blocked until the test closed the socket: the server had stopped reading
                }
            });
            sender.setDaemon(true);
            sender.start();
            long deadline = System.currentTimeMillis() + 30_000;
            while (server.stats().bytesIn() - before < sent && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            WebSocketConnection c = server.connections().iterator().next();     // 17: the 16 pongs that may wait, one being written
            long read = server.stats().bytesIn() - before;
            assertTrue(c.queuedBytes() <= 17 * 127, c.queuedBytes() + " bytes of pongs queued for 5,000,000 pings (the server read "
                    + read + " of " + sent + " bytes): a few pongs may wait, not one per ping");
            assertEquals(sent, read, "the server keeps reading a ping flood, since its pongs do not pile up");
        } finally {
            server.stop();
        }
    }

    @Test
    void echoesOfTinyMessagesAreHeldAtTheirRealCost() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        List<Socket> attackers = new ArrayList<>();
        try {
            long heapBefore = heapAfterGc();
            byte[] block = AttackFrames.repeated(AttackFrames.frame(true, false, OpCode.BINARY, new byte[] {42}), 10_000);
            List<Thread> senders = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Socket s = AttackFrames.nonReading(server.port(), "");
                attackers.add(s);
                Thread t = new Thread(() -> {
                    try {
                        for (int b = 0; b < 300; b++) {     // 3,000,000 messages, 21 MB each connection: past the socket buffers
                            s.getOutputStream().write(block);
                        }
                    } catch (Exception e) {
                        // blocked and then closed by the test: the server pushed back
                    }
                });
                t.setDaemon(true);
                t.start();
                senders.add(t);
            }
            Thread.sleep(6_000);
            long held = heapAfterGc() - heapBefore;
            assertTrue(held < 32L << 20, "8 connections that never read their echoes made the server hold " + (held >> 20)
                    + " MiB: each may hold about its 1 MiB read pause, counted at real cost");
            try (RawClient other = RawClient.open(server.port())) {
                other.send(other.writer.frame(OpCode.TEXT, true, "still served".getBytes(), 0, 12));
                assertEquals("still served", new String(other.readFrame(20_000).payload()));
            }
        } finally {
            for (Socket s : attackers) {
                s.close();
            }
            server.stop();
        }
    }

    static long heapAfterGc() throws InterruptedException {
        System.gc();
        Thread.sleep(100);
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
