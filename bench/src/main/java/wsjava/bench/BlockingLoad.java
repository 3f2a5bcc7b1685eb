package wsjava.bench;

import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed loop over blocking sockets: one thread per connection repeats its round trip (one
 * message in flight); only round trips that end inside the measured window count. For clients
 * whose per-message work (TLS, inflating) is easiest written blocking.
 */
public final class BlockingLoad {

    /** One round trip: send a message and read its echo. Returns the bytes moved, negative when the echo differed. */
    public interface RoundTrip {
        long run() throws Exception;
    }

    /** What a run measured; {@code error} is the first failure of a connection, or "". */
    public static final class Result {
        public long messages;
        public long wireBytes;
        public long mismatches;
        public volatile String error = "";
    }

    private BlockingLoad() {
    }

    /** Runs every connection's round trips for the warm-up and the measured window, then closes the sockets. */
    public static Result run(List<Socket> sockets, List<RoundTrip> trips, double warmupSeconds, double measureSeconds)
            throws InterruptedException {
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong messages = new AtomicLong();
        AtomicLong wire = new AtomicLong();
        AtomicLong mismatches = new AtomicLong();
        Result result = new Result();
        List<Thread> threads = new ArrayList<>();
        for (RoundTrip trip : trips) {
            Thread t = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        long moved = trip.run();
                        if (measuring.get()) {
                            messages.incrementAndGet();
                            wire.addAndGet(Math.abs(moved));
                            if (moved < 0) {
                                mismatches.incrementAndGet();
                            }
                        }
                    }
                } catch (Exception e) {
                    if (!stop.get() && result.error.isEmpty()) {
                        result.error = e.toString();
                    }
                }
            }, "load-client");
            t.setDaemon(true);
            threads.add(t);
        }
        try {
            threads.forEach(Thread::start);
            Thread.sleep((long) (warmupSeconds * 1000));
            measuring.set(true);
            Thread.sleep((long) (measureSeconds * 1000));
            measuring.set(false);
            result.messages = messages.get();
            result.wireBytes = wire.get();
            result.mismatches = mismatches.get();
        } finally {
            stop.set(true);
            for (Socket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing to stop the thread
                }
            }
            for (Thread t : threads) {
                t.join(5_000);
            }
        }
        return result;
    }
}
