package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The compression workers are shared fairly: connections with a long backlog of large messages to
 * compress (an attacker's echoes) delay another connection's one job by about one job each, not by
 * their whole backlog.
 */
@Timeout(60)
class CompressionLaneFairnessTest {

    private static final int BACKLOG = 40;
    private static final long JOB_MILLIS = 10;

    @Test
    void aConnectionsJobWaitsBehindOneJobPerBusyConnectionNotTheirBacklogs() throws Exception {
        int busy = CompressionLane.WORKER_COUNT + 2;     // more busy connections than workers: some lanes wait
        AtomicInteger busyJobsDone = new AtomicInteger();
        CountDownLatch allDone = new CountDownLatch(busy * BACKLOG);
        List<CompressionLane> attackers = new ArrayList<>();
        for (int a = 0; a < busy; a++) {
            CompressionLane lane = new CompressionLane(e -> { });
            attackers.add(lane);
            for (int i = 0; i < BACKLOG; i++) {
                lane.add(() -> {
                    work(JOB_MILLIS);
                    busyJobsDone.incrementAndGet();
                    allDone.countDown();
                });
            }
        }
        Thread.sleep(3 * JOB_MILLIS);       // the workers are well into the backlogs
        CompressionLane bystander = new CompressionLane(e -> { });
        AtomicInteger doneBefore = new AtomicInteger(-1);
        CountDownLatch ran = new CountDownLatch(1);
        bystander.add(() -> {
            doneBefore.set(busyJobsDone.get());
            ran.countDown();
        });
        assertTrue(ran.await(30, TimeUnit.SECONDS));
        int ahead = doneBefore.get();
        // round robin: at most the jobs running or waiting when it came (a few per busy lane); before, a worker finished a whole backlog first
        assertTrue(ahead < 4 * busy + busy, "the bystander's job ran after " + ahead + " of the busy connections' "
                + busy * BACKLOG + " jobs; a whole backlog is " + BACKLOG);
        assertTrue(allDone.await(30, TimeUnit.SECONDS));
    }

    /** Keeps a worker busy, as compressing does (not sleeping: a sleeping worker is the same to the queue, but this is honest CPU). */
    private static void work(long millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
