package wsjava.server;

import java.util.ArrayDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One connection's sends that run on a worker thread, in the order they were made: large messages
 * to compress that were sent from the I/O thread (compressing 16 MiB takes a large fraction of a
 * second, which would stall every connection of that thread), and every send that comes while such
 * a job waits, so that messages keep their order. The workers are few (half the cores, at least
 * one), so compression can never take every core from the I/O threads.
 */
final class CompressionLane {

    /** Messages from this size on, sent from the I/O thread, are compressed on a worker. */
    static final int OFFLOAD_FROM_BYTES = 64 * 1024;

    private static final ExecutorService WORKERS = workers();

    private final ArrayDeque<Runnable> jobs = new ArrayDeque<>();
    private boolean draining;

    private static ExecutorService workers() {
        int n = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(n, n, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "wsjava-deflate");
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Whether sends must join the lane now (a job waits or runs), to stay in order. */
    synchronized boolean busy() {
        return draining;
    }

    /** Runs {@code job} after the jobs before it, on a worker. */
    void add(Runnable job) {
        synchronized (this) {
            jobs.add(job);
            if (draining) {
                return;
            }
            draining = true;
        }
        WORKERS.execute(this::drain);
    }

    /** Adds {@code job} if the lane is busy; false (nothing added) when the caller may send at once. */
    synchronized boolean addIfBusy(Runnable job) {
        if (!draining) {
            return false;
        }
        jobs.add(job);
        return true;
    }

    private void drain() {
        while (true) {
            Runnable job;
            synchronized (this) {
                job = jobs.poll();
                if (job == null) {
                    draining = false;
                    return;
                }
            }
            try {
                job.run();
            } catch (RuntimeException | OutOfMemoryError e) {   // one message failed (the connection closes); the lane goes on
                ServerLog.log(System.Logger.Level.WARNING, "compressing an outgoing message failed", e);
            }
        }
    }
}
