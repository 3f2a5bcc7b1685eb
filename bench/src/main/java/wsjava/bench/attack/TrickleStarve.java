package wsjava.bench.attack;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import wsjava.protocol.OpCode;

/**
 * Issue 20, item 4: stalled compressed messages fill the inbound budget, and one more connection
 * trickles a message one byte every 0.4 s, which used to keep the overdraft for good. A good client
 * then sends a 4 MiB message: it must be echoed within a bound, since the overdraft goes only to a
 * connection that makes progress.
 */
final class TrickleStarve extends Attack {

    static final int GOOD_MESSAGE = 4 * 1024 * 1024;
    static final long DELIVERY_BOUND_MILLIS = 10_000;
    private final List<RawWs> stalled = new ArrayList<>();
    private RawWs trickler;
    private Thread trickle;
    private long sent;
    private double deliveredMillis = Double.NaN;

    @Override
    String name() {
        return "trickle-starve";
    }

    @Override
    String description(Scale scale) {
        return "the budget filled by stalled compressed messages, one connection trickling a byte every 0.4 s; a good client's 4 MiB message";
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        server.heapAfterGc();        // learns the server's heap, which sets its budget
        // Enough to fill the budget (an older build's had a floor of 64 MiB), and two more.
        int inflated = Bounds.largeMessage(server.maxHeap);
        int stallers = (int) (Math.max(64 * MIB, Bounds.inboundBudget(server.maxHeap)) / inflated) + 2;
        CompressedStall.stall(server.port, stallers, inflated, stalled);
        trickler = RawWs.open(server.port, false);
        byte[] header = RawWs.frame(true, false, OpCode.BINARY, new byte[1024 * 1024]);
        trickler.write(java.util.Arrays.copyOf(header, 1000));
        trickle = new Thread(() -> trickleFrom(header, 1000), "trickler");
        trickle.setDaemon(true);
        trickle.start();
        Thread.sleep(scale.millis(3_000, 2_000));
        deliveredMillis = goodClientRoundTrip(server.port, scale.millis(60_000, 30_000));
        sent = stalled.stream().mapToLong(RawWs::sent).sum() + trickler.sent();
    }

    private void trickleFrom(byte[] frame, int at) {
        try {
            for (int i = at; i < frame.length; i++) {
                trickler.write(new byte[] {frame[i]});
                Thread.sleep(400);
            }
        } catch (IOException | InterruptedException e) {
            // the attack is over
        }
    }

    /** Milliseconds from sending a 4 MiB binary message to reading its whole echo; NaN when it did not come in time. */
    private static double goodClientRoundTrip(int port, long timeoutMillis) {
        long start = System.nanoTime();
        try (RawWs good = RawWs.open(port, false)) {
            good.socket.setSoTimeout((int) timeoutMillis);
            good.write(RawWs.frame(true, false, OpCode.BINARY, new byte[GOOD_MESSAGE]));
            InputStream in = good.input();
            long echoed = 0;
            while (echoed < GOOD_MESSAGE) {
                echoed += ServerFrames.skipFrame(in);
            }
            return (System.nanoTime() - start) / 1e6;
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    @Override
    long bytesSent() {
        return sent;
    }

    @Override
    String detail() {
        return Double.isNaN(deliveredMillis) ? "4 MiB message: not echoed in time"
                : String.format(Locale.ROOT, "4 MiB message echoed in %.2f s", deliveredMillis / 1000);
    }

    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        if (Double.isNaN(deliveredMillis) || deliveredMillis > DELIVERY_BOUND_MILLIS) {
            problems.add("the good client's 4 MiB message took longer than " + DELIVERY_BOUND_MILLIS / 1000 + " s");
        }
        Bounds.heapHeldAtMost(row, Bounds.inboundHardLimit(row) + Bounds.SLACK, problems);
        return problems;
    }

    @Override
    public void close() {
        if (trickle != null) {
            trickle.interrupt();
        }
        if (trickler != null) {
            trickler.close();
        }
        stalled.forEach(RawWs::close);
    }
}
