package wsjava.bench.attack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 20, item 8 (pre-auth slowloris): about 270 new sockets a second each send half a request
 * head and never finish it, against a server capped at 2,000 connections. Half-finished
 * handshakes must not keep a bystander out: they have a cap of their own (the oldest goes first),
 * a per-address cap, and a short deadline for the whole head.
 */
final class HandshakeFlood extends Attack {

    private static final byte[] HALF_HEAD = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int THREADS = 3;
    private static final long OPEN_EVERY_MILLIS = 11;       // per thread: about 270 a second in all
    private final List<Thread> openers = new ArrayList<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong opened = new AtomicLong();
    private final ArrayDeque<Socket> held = new ArrayDeque<>();
    private volatile boolean running = true;

    @Override
    String name() {
        return "handshake-flood";
    }

    @Override
    String description(Scale scale) {
        return "about 270 sockets a second for " + scale.millis(10_000, 4_000) / 1000
                + " s each send half a request head and wait, against --max-connections 2000";
    }

    @Override
    List<String> serverOptions(Scale scale) {
        return List.of("--max-connections", "2000");
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        long millis = scale.millis(10_000, 4_000);
        for (int t = 0; t < THREADS; t++) {
            Thread opener = new Thread(() -> open(server.port), "slowloris");
            opener.setDaemon(true);
            opener.start();
            openers.add(opener);
        }
        Thread.sleep(millis);
        running = false;
        for (Thread t : openers) {
            t.join(5_000);
        }
    }

    private void open(int port) {
        while (running) {
            try {
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                s.getOutputStream().write(HALF_HEAD);
                sent.addAndGet(HALF_HEAD.length);
                opened.incrementAndGet();
                synchronized (held) {
                    held.add(s);
                    if (held.size() > 6_000) {      // bounded: the oldest goes, as it would time out anyway
                        held.poll().close();
                    }
                }
                Thread.sleep(OPEN_EVERY_MILLIS);
            } catch (IOException e) {
                // refused or reset: try the next one
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    long bytesSent() {
        return sent.get();
    }

    @Override
    String detail() {
        return opened.get() + " half handshakes";
    }

    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        if (row.bystanderFailures > 0) {
            problems.add(row.bystanderFailures + " bystander round trips failed (refused or timed out)");
        }
        return problems;
    }

    @Override
    public void close() {
        running = false;
        synchronized (held) {
            for (Socket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // leaving anyway
                }
            }
            held.clear();
        }
    }
}
