package wsjava.bench.attack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import wsjava.protocol.OpCode;

/**
 * Connections that each send a burst of 100 KiB text messages with their close frame right behind
 * them, in one write, then read until the server's close: the echoes are compressed on a worker,
 * and a close that overtook them lost them although each send had said true. The bound: every echo
 * arrives before the server's close frame.
 */
final class CloseAfterCompressedSend extends Attack {

    static final int MESSAGE_BYTES = 100 * 1024;
    /** Messages per burst: 400 KiB, under the read pause, so the close frame is read while they are compressed. */
    static final int BURST = 4;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong echoesExpected = new AtomicLong();
    private final AtomicLong echoesDelivered = new AtomicLong();
    private final AtomicLong rounds = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    /** How the first connection without a close frame ended: what to look for when the bound fails. */
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();

    @Override
    String name() {
        return "close-after-compressed-send";
    }

    @Override
    String description(Scale scale) {
        return scale.count(8, 4) + " connections at a time, for " + scale.millis(10_000, 3_000) / 1000 + " s, each send "
                + BURST + " text messages of 100 KiB (echoed compressed) and their close frame in one write, "
                + "then read until the server's close";
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        byte[] burst = burst(BURST);
        int count = BURST;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(scale.millis(10_000, 3_000));
        for (int i = 0; i < scale.count(8, 4); i++) {
            Thread t = new Thread(() -> {
                while (System.nanoTime() < deadline) {
                    round(server.port, burst, count);
                }
            }, "close-after-send-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(scale.millis(10_000, 3_000) + 30_000);
        }
    }

    /** {@code count} masked text frames of random letters, then a close frame. */
    private static byte[] burst(int count) {
        Random random = new Random(42);
        byte[] letters = new byte[MESSAGE_BYTES];
        for (int i = 0; i < letters.length; i++) {
            letters[i] = (byte) ('a' + random.nextInt(26));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            out.writeBytes(RawWs.frame(true, false, OpCode.TEXT, letters));
        }
        out.writeBytes(RawWs.frame(true, false, OpCode.CLOSE, new byte[] {0x03, (byte) 0xE8}));
        return out.toByteArray();
    }

    private void round(int port, byte[] burst, int count) {
        int echoes = 0;
        try (RawWs ws = RawWs.open(port, true)) {
            ws.socket.setSoTimeout(30_000);
            echoesExpected.addAndGet(count);
            Thread writer = new Thread(() -> write(ws, burst), "close-after-send-writer");    // the server pauses reading while we do not read
            writer.setDaemon(true);
            writer.start();
            while (ServerFrames.nextMessage(ws.input()) != OpCode.CLOSE) {
                echoesDelivered.incrementAndGet();
                echoes++;
            }
            rounds.incrementAndGet();
        } catch (IOException e) {
            errors.incrementAndGet();       // ended without the server's close frame: counted, and its echoes are missing
            firstError.compareAndSet(null, e + " after " + echoes + " of " + count + " echoes");
        }
    }

    private void write(RawWs ws, byte[] burst) {
        try {
            ws.write(burst);
            sent.addAndGet(burst.length);
        } catch (IOException e) {
            // the reader sees the connection end
        }
    }

    @Override
    long bytesSent() {
        return sent.get();
    }

    @Override
    String detail() {
        return echoesDelivered.get() + " of " + echoesExpected.get() + " echoes before the close, " + rounds.get() + " closes, "
                + errors.get() + " connections ended without one" + (firstError.get() == null ? "" : " (the first: " + firstError.get() + ")");
    }

    /** Every echo arrives before the close frame that followed its message. */
    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        if (rounds.get() == 0) {
            problems.add("no burst was answered with a close frame");
        }
        if (echoesDelivered.get() < echoesExpected.get() || errors.get() > 0) {
            problems.add((echoesExpected.get() - echoesDelivered.get()) + " of " + echoesExpected.get()
                    + " echoes lost before the close (" + errors.get() + " connections without a close frame)");
        }
        return problems;
    }

    @Override
    public void close() {
        threads.forEach(Thread::interrupt);
    }
}
