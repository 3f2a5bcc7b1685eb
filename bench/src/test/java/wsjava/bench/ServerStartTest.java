package wsjava.bench;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A server that cannot start fails its start, and never hangs the bench: the runner can then try a fresh port. */
class ServerStartTest {

    @Test
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)     // a hang in readLine is not interruptible
    void aServerThatNeitherGetsReadyNorExitsIsEndedAfterItsReadyTime(@TempDir Path out) {
        EchoBench.Peer silent = EchoBench.nativePeer("silent", List.of("sleep", "100"));     // "sleep 100 PORT": quiet, alive
        long t0 = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> EchoBench.start(silent, 1, false, out, 3));     // the bench waits 30 s; the watchdog is the same
        assertTrue((System.nanoTime() - t0) / 1e9 < 20, "the start gave up after " + (System.nanoTime() - t0) / 1e9 + " s");
        assertTrue(e.getMessage().contains("not ready within 3 s"), e.getMessage());
    }

    @Test
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)     // a hang in readLine is not interruptible
    void nettyExitsWhenItsPortIsTaken(@TempDir Path out) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            EchoBench.Peer netty = EchoBench.peer("Netty", "wsjava.bench.peers.NettyEchoServer", List.of());
            long t0 = System.nanoTime();
            assertThrows(IOException.class, () -> EchoBench.start(netty, taken.getLocalPort(), false, out));
            assertTrue((System.nanoTime() - t0) / 1e9 < 25, "Netty should exit at once, not wait for the watchdog");
        }
    }
}
