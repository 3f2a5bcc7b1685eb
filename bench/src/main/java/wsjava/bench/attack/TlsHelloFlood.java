package wsjava.bench.attack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A ClientHello flood from one address against a wss server: each hello costs the server a key
 * exchange and a signature on its handshake threads. Real wss clients from another address must
 * still complete their handshakes: the threads serve addresses in turn.
 */
final class TlsHelloFlood extends Attack {

    /** Flooding threads and the sockets each holds: the smoke run (CI) floods with half the threads and half the sockets. */
    private static final int THREADS = 2;
    private static final int HELD_PER_THREAD = 300;
    /**
     * The smoke run's pace, hellos a second: it checks that real clients are served and memory stays
     * bounded. Unpaced, a flood of 3,000 hellos a second put a bystander's p99 past 1 s under a
     * 128 MiB heap (a per-address rate of new handshakes is not limited: see Known limits).
     */
    private static final int SMOKE_HELLOS_PER_SECOND = 500;
    private static final int REAL_CLIENTS = 8;
    private final AtomicLong hellos = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final List<Thread> flooders = new ArrayList<>();
    private volatile boolean running = true;
    private int realUpgraded;
    private double seconds;

    @Override
    String name() {
        return "tls-hello-flood";
    }

    @Override
    String description(Scale scale) {
        return scale.count(THREADS, THREADS / 2) + " threads send ClientHellos from 127.0.0.1"
                + (scale.smoke ? " at " + SMOKE_HELLOS_PER_SECOND + " a second" : " as fast as they can") + " for " + scale.millis(10_000, 4_000) / 1000
                + " s, each socket held until " + scale.count(HELD_PER_THREAD, HELD_PER_THREAD / 2) + " newer ones; then " + REAL_CLIENTS
                + " real wss handshakes from 127.0.0.2, all of which must upgrade";
    }

    @Override
    boolean tls() {
        return true;
    }

    @Override
    List<String> serverOptions(Scale scale) {
        return List.of("--tls-self-signed");
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        byte[] hello = TlsHello.clientHello();
        long start = System.nanoTime();
        int held = scale.count(HELD_PER_THREAD, HELD_PER_THREAD / 2);
        for (int t = 0; t < scale.count(THREADS, THREADS / 2); t++) {
            int pace = scale.smoke ? SMOKE_HELLOS_PER_SECOND : Integer.MAX_VALUE;
            Thread f = new Thread(() -> flood(server.port, hello, held, pace), "hello-flood");
            f.setDaemon(true);
            f.start();
            flooders.add(f);
        }
        Thread.sleep(scale.millis(10_000, 4_000));
        for (int i = 0; i < REAL_CLIENTS; i++) {
            try (RawWs ws = RawWs.open(server.port, true, "127.0.0.2")) {
                realUpgraded++;
            } catch (IOException e) {
                // refused or timed out: counted as not upgraded
            }
        }
        running = false;
        for (Thread f : flooders) {
            f.join(10_000);
        }
        seconds = (System.nanoTime() - start) / 1e9;
    }

    private void flood(int port, byte[] hello, int heldAtMost, int perSecond) {
        ArrayDeque<Socket> held = new ArrayDeque<>();
        long start = System.nanoTime();
        long mine = 0;
        try {
            while (running) {
                if (mine * 1_000_000_000L / perSecond > System.nanoTime() - start) {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    continue;
                }
                mine++;
                try {
                    Socket s = new Socket();
                    s.bind(new InetSocketAddress("127.0.0.1", 0));
                    s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                    s.getOutputStream().write(hello);
                    hellos.incrementAndGet();
                    sent.addAndGet(hello.length);
                    held.add(s);
                } catch (IOException e) {
                    // pushed out or refused: go on
                }
                while (held.size() > heldAtMost) {
                    closeQuietly(held.poll());
                }
            }
        } finally {
            held.forEach(TlsHelloFlood::closeQuietly);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // leaving anyway
        }
    }

    @Override
    long bytesSent() {
        return sent.get();
    }

    @Override
    String detail() {
        return String.format("%d hellos (%.0f/s); %d/%d real wss handshakes upgraded", hellos.get(), hellos.get() / Math.max(seconds, 1e-3),
                realUpgraded, REAL_CLIENTS);
    }

    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        if (realUpgraded != REAL_CLIENTS) {
            problems.add("only " + realUpgraded + " of " + REAL_CLIENTS + " real wss handshakes upgraded during the hello flood");
        }
        if (row.bystanderFailures > 0) {
            problems.add(row.bystanderFailures + " bystander round trips failed (refused or timed out)");
        }
        return problems;
    }

    @Override
    public void close() {
        running = false;
    }
}
