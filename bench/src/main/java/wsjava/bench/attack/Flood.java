package wsjava.bench.attack;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many attacker connections, each writing the same block of frames over and over on a thread of
 * its own, bounded in time and in bytes: a write that blocks because the server stopped reading
 * simply waits (that is the server pushing back). {@link #stopSending()} ends the writes and keeps
 * the connections open, so whatever the server holds for them can be measured; {@link #close()}
 * drops them.
 */
final class Flood implements AutoCloseable {

    private final List<RawWs> connections = new ArrayList<>();
    private final List<Thread> senders = new ArrayList<>();
    private final AtomicLong sent = new AtomicLong();
    private final CountDownLatch done;
    private volatile boolean sending = true;

    private Flood(int count) {
        done = new CountDownLatch(count);
    }

    /**
     * Opens {@code count} connections and starts each writing {@code block} until {@code millis} pass
     * or it has written {@code maxBytesEach}.
     */
    static Flood start(int port, int count, boolean offerDeflate, byte[] block, long millis, long maxBytesEach) throws IOException {
        Flood flood = new Flood(count);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (int i = 0; i < count; i++) {
            RawWs ws = RawWs.open(port, offerDeflate);
            flood.connections.add(ws);
            Thread t = new Thread(() -> flood.send(ws, block, deadline, maxBytesEach), "flood-" + i);
            t.setDaemon(true);
            flood.senders.add(t);
        }
        flood.senders.forEach(Thread::start);
        return flood;
    }

    private void send(RawWs ws, byte[] block, long deadline, long maxBytes) {
        long mine = 0;
        try {
            while (sending && mine < maxBytes && System.nanoTime() < deadline) {
                ws.write(block);
                mine += block.length;
                sent.addAndGet(block.length);
            }
        } catch (IOException e) {
            // the server closed us, or we were closed: either ends this sender
        } finally {
            done.countDown();
        }
    }

    /** Waits until every sender is done (its time or bytes are up), at most {@code millis}. */
    void awaitSenders(long millis) throws InterruptedException {
        done.await(millis, TimeUnit.MILLISECONDS);
    }

    /** Ends the writes; a sender blocked in a write stays blocked until {@link #close()}. */
    void stopSending() {
        sending = false;
    }

    long bytesSent() {
        return sent.get();
    }

    List<RawWs> connections() {
        return connections;
    }

    @Override
    public void close() {
        sending = false;
        connections.forEach(RawWs::close);
    }
}
