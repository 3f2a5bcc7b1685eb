package wsjava.server;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The TLS handshakes' slow steps (the engine's delegated tasks), run by a few shared threads and
 * taken from the client addresses in turn: a flood of ClientHellos from one address waits in its
 * own line while handshakes from other addresses are served. Nothing is refused here: each waiting
 * batch belongs to a socket in its handshake, which the handshake limiter and the connection limit
 * already bound, and a batch whose socket has closed meanwhile is skipped when its turn comes.
 */
final class TlsTaskQueue {

    private final int threads;
    /** Batches waiting, one line per address; the address served next is first. */
    private final LinkedHashMap<String, ArrayDeque<Runnable>> lines = new LinkedHashMap<>();
    private int started;
    private int waiting;

    TlsTaskQueue(int threads) {
        this.threads = threads;
    }

    synchronized void submit(String address, Runnable batch) {
        lines.computeIfAbsent(address, a -> new ArrayDeque<>()).add(batch);
        waiting++;
        if (started < threads) {
            started++;
            Thread t = new Thread(this::work, "wsjava-tls-task");
            t.setDaemon(true);
            t.start();
        } else {
            notify();
        }
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
        Iterator<Map.Entry<String, ArrayDeque<Runnable>>> first = lines.entrySet().iterator();
        Map.Entry<String, ArrayDeque<Runnable>> line = first.next();
        Runnable batch = line.getValue().poll();
        first.remove();
        if (!line.getValue().isEmpty()) {
            lines.put(line.getKey(), line.getValue());
        }
        waiting--;
        return batch;
    }
}
