package wsjava.server;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The TLS handshakes' slow steps (the engine's delegated tasks), run by a few shared threads and
 * taken from the client addresses in turn: a flood of ClientHellos from one address waits in its
 * own line while handshakes from other addresses are served. A waiting batch holds its engine
 * (about 150 KB), so a line keeps at most {@link #PER_ADDRESS} batches: batches whose socket has
 * closed leave it first, and past that a new one is refused (its connection closes). Without the
 * cap, sockets pushed out while their batch waited kept their engines queued: a flood from one
 * address filled a 128 MiB heap.
 */
final class TlsTaskQueue {

    /** Batches one address may have waiting. */
    static final int PER_ADDRESS = 64;

    /** A batch and whether its socket is still open. */
    private static final class Batch {
        final Runnable run;
        final BooleanSupplier alive;

        Batch(Runnable run, BooleanSupplier alive) {
            this.run = run;
            this.alive = alive;
        }
    }

    private final int threads;
    /** Batches waiting, one line per address; the address served next is first. */
    private final LinkedHashMap<String, ArrayDeque<Batch>> lines = new LinkedHashMap<>();
    private int started;
    private int waiting;

    TlsTaskQueue(int threads) {
        this.threads = threads;
    }

    /** Queues {@code batch} in its address's line; false (refused) when that line is full of live batches. */
    synchronized boolean submit(String address, BooleanSupplier alive, Runnable batch) {
        ArrayDeque<Batch> line = lines.computeIfAbsent(address, a -> new ArrayDeque<>());
        if (line.size() >= PER_ADDRESS) {
            int before = line.size();
            line.removeIf(b -> !b.alive.getAsBoolean());
            waiting -= before - line.size();
            if (line.size() >= PER_ADDRESS) {
                return false;
            }
        }
        line.add(new Batch(batch, alive));
        waiting++;
        if (started < threads) {
            started++;
            Thread t = new Thread(this::work, "wsjava-tls-task");
            t.setDaemon(true);
            t.start();
        } else {
            notify();
        }
        return true;
    }

    /** Batches waiting for a thread. */
    synchronized int waiting() {
        return waiting;
    }

    private void work() {
        while (true) {
            Runnable batch;
            try {
                batch = take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                batch.run();
            } catch (RuntimeException e) {   // a task failed: its connection finds out when it resumes
                ServerLog.log(System.Logger.Level.DEBUG, "a TLS handshake task failed", e);
            }
        }
    }

    /** The first waiting batch of the address whose turn it is; that address goes to the back of the turn. */
    private synchronized Runnable take() throws InterruptedException {
        while (waiting == 0) {
            wait();
        }
        Iterator<Map.Entry<String, ArrayDeque<Batch>>> first = lines.entrySet().iterator();
        Map.Entry<String, ArrayDeque<Batch>> line = first.next();
        Runnable batch = line.getValue().poll().run;
        first.remove();
        if (!line.getValue().isEmpty()) {
            lines.put(line.getKey(), line.getValue());
        }
        waiting--;
        return batch;
    }
}
