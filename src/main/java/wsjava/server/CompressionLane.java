package wsjava.server;

import java.util.ArrayDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One connection's sends that run on a worker thread, in the order they were made: large messages
 * to compress that were sent from the I/O thread (compressing 16 MiB takes a large fraction of a
 * second, which would stall every connection of that thread), and every send that comes while such
 * a job waits, so that messages keep their order. The close frame joins the lane too while a job
 * waits ({@link #close}): it goes out after every message taken before it, and the lane refuses
 * what comes after it.
 *
 * <p>The workers are few (half the cores, at least one), so compression can never take every core
 * from the I/O threads. They are shared fairly: a lane runs one job per turn, then waits behind the
 * other lanes with work, so a connection that makes many large messages to compress delays another
 * connection's job by at most one job of each busy connection, not by its whole backlog.
 */
final class CompressionLane {

    /** Messages from this size on, sent from the I/O thread, are compressed on a worker. */
    static final int OFFLOAD_FROM_BYTES = 64 * 1024;

    /** What became of a send offered to the lane. */
    enum Turn {
        /** No job waits: the caller sends at once. */
        NOW,
        /** Taken: it runs after the jobs before it. */
        TAKEN,
        /** The close frame is queued or waits here: nothing may follow it. */
        REFUSED
    }

    /** Half the cores, at least one. */
    static final int WORKER_COUNT = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    private static final ExecutorService WORKERS = workers();

    private final ArrayDeque<Runnable> jobs = new ArrayDeque<>();
    /** Told when a job fails: its send had been taken (true to the caller), so the connection may not go on without it. */
    private final Consumer<Throwable> failed;
    /** A turn is queued or running on a worker. */
    private boolean draining;
    /** The close frame was handed over: nothing more is taken. */
    private boolean closed;

    CompressionLane(Consumer<Throwable> failed) {
        this.failed = failed;
    }

    private static ExecutorService workers() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(WORKER_COUNT, WORKER_COUNT, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
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

    /** Runs {@code job} after the jobs before it, on a worker; false (nothing added) once the lane is closed. */
    boolean add(Runnable job) {
        synchronized (this) {
            if (closed) {
                return false;
            }
            jobs.add(job);
            if (draining) {
                return true;
            }
            draining = true;
        }
        WORKERS.execute(this::turn);
        return true;
    }

    /** Takes {@code job} if the lane is busy; {@link Turn#NOW} (nothing added) when the caller may send at once. */
    synchronized Turn addIfBusy(Runnable job) {
        if (closed) {
            return Turn.REFUSED;
        }
        if (!draining) {
            return Turn.NOW;
        }
        jobs.add(job);
        return Turn.TAKEN;
    }

    /**
     * Queues the close frame with {@code queueClose}: after every job already taken (on a worker), or
     * at once on this thread when none waits. Later sends are refused. Returns false if the lane was
     * closed already, else what {@code queueClose} returned (at once) or true (it waits its turn).
     */
    boolean close(BooleanSupplier queueClose) {
        synchronized (this) {
            if (closed) {
                return false;
            }
            closed = true;
            if (draining) {
                jobs.add(queueClose::getAsBoolean);
                return true;
            }
        }
        return queueClose.getAsBoolean();
    }

    /**
     * One job, then the lane goes to the back of the workers' queue if it has more. Whatever fails
     * (a job, telling of its failure, handing the next turn over: all may run out of memory), the
     * lane goes on: a lane left busy would hold its close frame, and its close timeout, for ever.
     */
    private void turn() {
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
            } catch (Throwable e) {
                report(e);
            }
            synchronized (this) {
                if (jobs.isEmpty()) {
                    draining = false;
                    return;
                }
            }
            try {
                WORKERS.execute(this::turn);
                return;
            } catch (Throwable e) {   // the turn could not be handed over (out of memory): this worker takes it, nothing is lost
                // go on here
            }
        }
    }

    private void report(Throwable e) {
        try {
            failed.accept(e);
        } catch (Throwable again) {   // out of memory again: the lane goes on all the same
            // nothing more can be done for this connection here
        }
    }
}
