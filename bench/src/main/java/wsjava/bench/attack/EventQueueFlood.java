package wsjava.bench.attack;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import wsjava.protocol.OpCode;

/**
 * Issue 20, item 2: against a server as the WL paclet runs it (its handlers fed from the event
 * queue by a kernel that drains slowly), connections each send one compressed text message that
 * inflates to 15 MiB and stay. The queue must stop every connection of the server before a new
 * message is assembled once it is over its heap-derived limit, so the JVM (in WL: the kernel's
 * Java, with every server in it) keeps its heap.
 */
final class EventQueueFlood extends Attack {

    /**
     * The smoke's bytes under any heap: 40 messages under -Xmx128m fill that queue (32 MiB) several times over;
     * on a large heap 40 would only queue 600 MiB, far below its limit, for 30 s of the slow kernel.
     */
    private static final long SMOKE_BYTES = 40L * (2 << 20) / 16 * 15;

    private final List<RawWs> senders = new ArrayList<>();
    private long sent;
    /** Why the server upgraded no more connections, once the queue was full (null: it upgraded all). */
    private String heldBack;

    @Override
    String name() {
        return "event-queue-flood";
    }

    @Override
    String description(Scale scale) {
        return "a WL-style server whose kernel takes events at 20 MB/s; " + (scale.smoke ? "as many connections as carry 75 MiB"
                + " (40 under -Xmx128m, 5 on a large heap)" : "200 connections") + " each send one compressed text message of"
                + " 15/16 of its default limit (15 MiB on a large heap), until the full queue holds upgrades back";
    }

    @Override
    String mode() {
        return "events";
    }

    /**
     * As the WL paclet starts servers today: "MaxMessageSize" -> Automatic passes no limit, so
     * Java's for WL servers applies (16 MiB, or a 64th of the heap if less, at least 1 MiB).
     */
    @Override
    List<String> serverOptions(Scale scale) {
        return List.of();
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        byte[] message = RawWs.frame(true, true, OpCode.TEXT, Compressed.withRatio(messageBytes(server), 150));
        long queueLimit = server.maxHeap / 4;
        int connections = scale.smoke ? (int) Math.max(4, Math.min(40, SMOKE_BYTES / size)) : 200;
        for (int i = 0; i < connections; i++) {
            RawWs ws;
            try {
                ws = RawWs.open(server.port, true);
            } catch (IOException e) {
                // Over its limit, the queue has the server upgrade no one until the kernel has taken it down
                // to half (under the default heap, 375 MiB of text at 20 MB/s), and a waiting client gets 408
                // after the handshake timeout. That is the attack at its worst: measure it. Refused before the
                // messages sent could fill the queue (text counts two bytes a character), the server is broken.
                if (2L * senders.size() * size < queueLimit) {
                    throw e;
                }
                heldBack = e.getMessage();
                break;
            }
            senders.add(ws);
            ws.write(message);
        }
        sent = senders.stream().mapToLong(RawWs::sent).sum();
        Thread.sleep(scale.millis(4_000, 2_000));
    }

    @Override
    String detail() {
        return heldBack == null ? "" : senders.size() + " messages sent; then the full queue held upgrades back (" + heldBack + ")";
    }

    @Override
    long bytesSent() {
        return sent;
    }

    /** Every message is delivered in the end (nothing a client sent is lost). */
    @Override
    long bytesForTheKernel() {
        return senders.size() * (long) size;
    }

    private int size;

    /** 15/16 of the WL server's default limit for this heap. */
    private int messageBytes(ServerUnderTest server) {
        long limit = Math.max(1 << 20, Math.min(16 << 20, server.maxHeap / 64));
        size = (int) (limit / 16 * 15);
        return size;
    }

    /** Queued events within the queue's limit, messages in progress within the inbound budget. */
    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        Bounds.heapHeldAtMost(row, Bounds.eventQueueLimit(row) + Bounds.inboundHardLimit(row) + Bounds.SLACK, problems);
        return problems;
    }

    @Override
    public void close() {
        senders.forEach(RawWs::close);
    }
}
