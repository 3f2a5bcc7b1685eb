package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One address's waiting handshake batches are bounded: each holds its engine, and sockets pushed out
 * while their batch waited used to keep their engines queued (a hello flood filled a 128 MiB heap).
 */
@Timeout(30)
class TlsTaskQueueTest {

    @Test
    void oneAddressLineIsBoundedAndOtherAddressesAreNot() throws Exception {
        TlsTaskQueue queue = new TlsTaskQueue(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        assertTrue(queue.submit("10.0.0.9", () -> true, () -> {      // holds the one thread
            started.countDown();
            await(release);
        }));
        assertTrue(started.await(5, TimeUnit.SECONDS));
        for (int i = 0; i < TlsTaskQueue.PER_ADDRESS; i++) {
            assertTrue(queue.submit("10.0.0.1", () -> true, () -> { }), "batch " + i);
        }
        assertFalse(queue.submit("10.0.0.1", () -> true, () -> { }), "past its line's cap, a batch is refused");
        assertTrue(queue.submit("10.0.0.2", () -> true, () -> { }), "another address still gets in line");
        release.countDown();
    }

    @Test
    void batchesWhoseSocketClosedMakeRoom() throws Exception {
        TlsTaskQueue queue = new TlsTaskQueue(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        queue.submit("10.0.0.9", () -> true, () -> {
            started.countDown();
            await(release);
        });
        assertTrue(started.await(5, TimeUnit.SECONDS));
        AtomicBoolean open = new AtomicBoolean(true);
        for (int i = 0; i < TlsTaskQueue.PER_ADDRESS; i++) {
            queue.submit("10.0.0.1", open::get, () -> { });
        }
        open.set(false);      // their sockets were pushed out while they waited
        assertTrue(queue.submit("10.0.0.1", () -> true, () -> { }), "closed sockets' batches leave the line");
        assertTrue(queue.waiting() <= 2, "the closed ones are gone from the count: " + queue.waiting());
        release.countDown();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
