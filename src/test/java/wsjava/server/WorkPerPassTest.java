package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.AttackFrames;
import wsjava.testing.RawClient;

/**
 * Issue 20, item 5: no work limit applied per 512 KiB read, so a connection sending compressed
 * 16 MiB messages held its I/O thread for whole seconds (inflating, and compressing the echoes),
 * and every other connection of that thread waited. A connection now gets a bounded amount of
 * inflating per loop pass and keeps the rest of its read for the next, and large compressions run
 * off the I/O thread. The bound asserted is generous (the machine may be busy): a bystander's p99.
 */
@Tag("serial")      // a bystander's p99 bound: run alone, not beside another test JVM
@Timeout(120)
class WorkPerPassTest {

    @Test
    void compressedMessagesOnOneConnectionDoNotStallTheOthersOnItsThread() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), new EchoListener()).start();
        byte[] message = AttackFrames.frame(true, true, OpCode.BINARY, AttackFrames.deflate(AttackFrames.text((16 << 20) - 1024, 256)));
        byte[] block = AttackFrames.repeated(message, 4);
        List<Double> millis = new ArrayList<>();
        try (RawClient bystander = RawClient.open(server.port());
             RawClient attacker = RawClient.openOffering(server.port(), "permessage-deflate; client_no_context_takeover")) {
            Thread reader = new Thread(() -> {
                try {
                    while (attacker.readFrame(60_000) != null) {
                        // drain the echoes, so the server keeps reading this connection
                    }
                } catch (Exception e) {
                    // closed
                }
            });
            reader.setDaemon(true);
            reader.start();
            Thread sender = new Thread(() -> {
                try {
                    long end = System.nanoTime() + 6_000_000_000L;
                    while (System.nanoTime() < end) {
                        attacker.send(block);
                    }
                } catch (Exception e) {
                    // closed
                }
            });
            sender.setDaemon(true);
            sender.start();
            Thread.sleep(500);
            long end = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < end) {
                long start = System.nanoTime();
                bystander.send(bystander.writer.frame(OpCode.TEXT, true, "ping".getBytes(), 0, 4));
                Frame f = bystander.readFrame(30_000);
                assertTrue(f != null && f.opcode() == OpCode.TEXT);
                millis.add((System.nanoTime() - start) / 1e6);
                Thread.sleep(20);
            }
        } finally {
            server.stop();
        }
        Collections.sort(millis);
        double p99 = millis.get((int) Math.ceil(0.99 * millis.size()) - 1);
        assertTrue(p99 < 500, "bystander p99 " + p99 + " ms over " + millis.size() + " round trips (max " + millis.get(millis.size() - 1)
                + " ms) beside a connection sending compressed 16 MiB messages");
    }
}
