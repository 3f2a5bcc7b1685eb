package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.ChildJvm;
import wsjava.testing.HoardingServer;
import wsjava.testing.RawClient;

/**
 * Issue 20, item 1 (its last part): when the heap is gone, the catch in the I/O loop used to log,
 * the log line needed memory, and the thread died: one connection that ate the heap took the
 * server down. Now the loop lets a small reserve go, sheds the connection being served, and goes on.
 */
@Timeout(120)
class OutOfMemoryTest {

    @Test
    void aConnectionThatEatsTheHeapIsShedAndTheLoopServesTheOthers() throws Exception {
        try (ChildJvm child = ChildJvm.start(List.of("-Xmx64m", "-XX:+UseSerialGC"), HoardingServer.class.getName());
             RawClient bystander = RawClient.open(child.port);
             RawClient hoarder = RawClient.open(child.port)) {
            assertEquals("before", echo(bystander, "before"));
            hoarder.send(hoarder.writer.frame(OpCode.TEXT, true, "hoard".getBytes(), 0, 5));
            assertTrue(hoarder.closedByServerWithin(30_000), "the connection that ate the heap is shed");
            assertEquals("after", echo(bystander, "after"), "the I/O thread still serves the other connection; log:\n" + child.logText());
            try (RawClient fresh = RawClient.open(child.port)) {
                assertEquals("fresh", echo(fresh, "fresh"));
            }
            assertTrue(child.alive());
        }
    }

    private static String echo(RawClient c, String text) throws Exception {
        c.send(c.writer.frame(OpCode.TEXT, true, text.getBytes(), 0, text.length()));
        Frame f = c.readFrame(20_000);
        return f == null ? null : new String(f.payload());
    }
}
