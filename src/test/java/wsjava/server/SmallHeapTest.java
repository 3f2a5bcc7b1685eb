package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.ChildJvm;
import wsjava.testing.PrintDefaults;
import wsjava.testing.RawClient;

/**
 * Issue 20, item 9: under -Xmx64m the inbound budget's floor (64 MiB) was the whole heap, and when
 * no direct buffer could be had two good clients (12 MiB messages, under the limit) were closed
 * without a close frame. The budget is now derived from heap and direct memory with no floor, and
 * a message that cannot get a direct buffer goes on in a heap array (within the same budget)
 * instead of failing. J/Link kernels often run small heaps.
 */
@Timeout(180)
class SmallHeapTest {

    @Test
    void theDefaultInboundBudgetIsAQuarterOfASmallHeap() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"), PrintDefaults.class.getName()).start();
        String[] words = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim().split(" ");
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        long budget = Long.parseLong(words[0]);
        long heap = Long.parseLong(words[1]);
        assertTrue(budget <= heap / 4, "under -Xmx64m the default budget is " + (budget >> 20) + " MiB of a " + (heap >> 20) + " MiB heap");
    }

    @Test
    void clientsWhoseMessagesFindNoDirectMemoryAreServedWholeFromTheHeap() throws Exception {
        try (ChildJvm child = ChildJvm.start(List.of("-Xmx96m", "-XX:MaxDirectMemorySize=24m"), "wsjava.cli.Main", "serve", "--port", "0",
                "--max-message", String.valueOf(16 << 20), "--max-frame", String.valueOf(16 << 20))) {
            int size = 12 << 20;
            List<RawClient> clients = new ArrayList<>();
            List<CompletableFuture<Boolean>> echoes = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    RawClient c = RawClient.open(child.port);
                    clients.add(c);
                    byte[] data = new byte[size];
                    new Random(i).nextBytes(data);
                    byte[] frame = c.writer.frame(OpCode.BINARY, true, data, 0, size);
                    echoes.add(CompletableFuture.supplyAsync(() -> sendAndCheckEcho(c, frame, data)));
                }
                for (CompletableFuture<Boolean> echo : echoes) {
                    assertTrue(echo.get(120, TimeUnit.SECONDS), "a 12 MiB message came back whole; server log:\n" + child.logText());
                }
                assertTrue(child.alive());
                assertTrue(!child.logText().contains("OutOfMemoryError"), child.logText());
            } finally {
                for (RawClient c : clients) {
                    c.close();
                }
            }
        }
    }

    /** Sends in 64 KiB writes (so the three messages are assembled side by side) and reads the whole echo. */
    private static boolean sendAndCheckEcho(RawClient c, byte[] frame, byte[] data) {
        try {
            Thread writer = new Thread(() -> {
                try {
                    c.sendChopped(frame, 64 * 1024, 1);
                } catch (Exception e) {
                    // the read below reports it
                }
            });
            writer.start();
            byte[] echoed = new byte[data.length];
            int at = 0;
            while (at < data.length) {
                Frame f = c.readFrame(60_000);
                if (f == null || f.opcode() == OpCode.CLOSE) {
                    return false;
                }
                System.arraycopy(f.payload(), 0, echoed, at, f.payload().length);
                at += f.payload().length;
            }
            assertEquals(data.length, at);
            return java.util.Arrays.equals(data, echoed);
        } catch (Exception e) {
            return false;
        }
    }
}
