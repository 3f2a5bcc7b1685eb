package wsjava.bench.attack;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import wsjava.link.EventQueue;
import wsjava.protocol.OpCode;

/**
 * Round 3's messages in progress: against a server as the WL paclet runs it, connections each send
 * the first half of a compressed message that inflates to 15/16 of its limit, so every message has
 * started before the queue fills; then the second halves. Each message must reserve room in the
 * queue as it grows, so what the queue holds stays within its bound (round 3: 6.4x its limit).
 */
final class EventQueueInProgress extends Attack {

    private final List<RawWs> senders = new ArrayList<>();
    private long sent;
    private long bound;
    private int size;

    @Override
    String name() {
        return "event-queue-in-progress";
    }

    @Override
    String description(Scale scale) {
        return "a WL-style server whose kernel takes events at 20 MB/s; " + scale.count(200, 40)
                + " connections each send half of a compressed message of 15/16 of its limit, then the rest";
    }

    @Override
    String mode() {
        return "events";
    }

    /** The WL server's default message limit for this heap (16 MiB, or a 64th of the heap if less, at least 1 MiB). */
    static int maxMessage(long maxHeap) {
        return (int) Math.max(1 << 20, Math.min(16 << 20, maxHeap / 64));
    }

    static int messageBytes(long maxHeap) {
        return maxMessage(maxHeap) / 16 * 15;
    }

    /** The queue's bound with the WL server's defaults: a quarter of the heap, two I/O threads. */
    static long queueBound(long maxHeap) {
        return EventQueue.heldAtMost(maxHeap / 4, 2, maxMessage(maxHeap));
    }

    /** The WL server's inbound budget (an eighth of the heap) with its overdraft. */
    static long inboundHardLimit(long maxHeap) {
        return maxHeap / 8 + Math.max(maxHeap / 8, maxMessage(maxHeap));
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        size = messageBytes(server.maxHeap);
        bound = queueBound(server.maxHeap);
        byte[] message = RawWs.frame(true, true, OpCode.TEXT, Compressed.withRatio(size, 150));
        byte[] first = Arrays.copyOf(message, message.length / 2);
        byte[] rest = Arrays.copyOfRange(message, message.length / 2, message.length);
        for (int i = 0; i < scale.count(200, 40); i++) {
            senders.add(RawWs.open(server.port, true));      // all open first: a full queue makes upgrades wait
        }
        for (RawWs ws : senders) {
            ws.write(first);
        }
        Thread.sleep(scale.millis(1_000, 500));
        for (RawWs ws : senders) {
            ws.write(rest);
        }
        sent = senders.stream().mapToLong(RawWs::sent).sum();
        Thread.sleep(scale.millis(4_000, 2_000));
    }

    @Override
    long bytesSent() {
        return sent;
    }

    @Override
    long bytesForTheKernel() {
        return senders.size() * (long) size;
    }

    @Override
    String detail() {
        return "queue bound " + bound / MIB + " MiB";
    }

    /** The queue within its bound, messages in progress within the inbound budget. */
    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        Bounds.heapHeldAtMost(row, bound + inboundHardLimit(row.heapMax) + Bounds.SLACK, problems);
        return problems;
    }

    @Override
    public void close() {
        senders.forEach(RawWs::close);
    }
}
