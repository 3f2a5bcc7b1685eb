package wsjava.bench.attack;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import wsjava.protocol.OpCode;

/**
 * A well-behaved client beside an attack: a 64-byte text round trip every 20 ms, timed. A round
 * trip that fails (no echo within the timeout, a refused or lost connection) counts as the timeout
 * and the bystander connects again, so a server that stops serving shows as a p99 at the timeout.
 */
final class Bystander implements AutoCloseable {

    static final int TIMEOUT_MILLIS = 5_000;
    private static final byte[] MESSAGE = RawWs.frame(true, false, OpCode.TEXT, "bystander round trip, 64 bytes of text: 0123456789abcdef0123".getBytes());

    private final int port;
    private final boolean tls;
    private final List<Double> millis = Collections.synchronizedList(new ArrayList<>());
    private final Thread thread;
    private volatile boolean running = true;
    private volatile int failures;

    Bystander(int port, boolean tls) {
        this.port = port;
        this.tls = tls;
        this.thread = new Thread(this::run, "bystander");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        RawWs ws = null;
        while (running) {
            long start = System.nanoTime();
            try {
                if (ws == null) {
                    ws = RawWs.open(port, tls, "127.0.0.2");
                    ws.socket.setSoTimeout(TIMEOUT_MILLIS);
                }
                ws.write(MESSAGE);
                readEcho(ws.input());
                millis.add((System.nanoTime() - start) / 1e6);
            } catch (IOException e) {
                failures++;
                millis.add((double) Math.max(TIMEOUT_MILLIS, (System.nanoTime() - start) / 1_000_000L));
                if (ws != null) {
                    ws.close();
                    ws = null;
                }
            }
            pause(20);
        }
        if (ws != null) {
            ws.close();
        }
    }

    /** Reads one unmasked server frame with a payload under 126 bytes. */
    private static void readEcho(InputStream in) throws IOException {
        int b0 = in.read();
        int len = in.read() & 0x7F;
        if (b0 < 0 || len >= 126) {
            throw new IOException("no echo");
        }
        if (in.readNBytes(len).length != len) {
            throw new IOException("echo cut short");
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The 99th percentile round trip so far, in milliseconds (NaN before any). */
    double p99() {
        List<Double> sorted;
        synchronized (millis) {
            sorted = new ArrayList<>(millis);
        }
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(0.99 * sorted.size()) - 1));
    }

    int roundTrips() {
        return millis.size();
    }

    int failures() {
        return failures;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(TIMEOUT_MILLIS + 2_000);
    }

    /** Whether a fresh client is served: connects and gets an echo within the timeout. */
    static boolean servedAfresh(int port, boolean tls) {
        try (RawWs ws = RawWs.open(port, tls, "127.0.0.2")) {
            ws.socket.setSoTimeout(TIMEOUT_MILLIS);
            ws.write(MESSAGE);
            readEcho(ws.input());
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
