package wsjava.bench.attack;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import wsjava.protocol.OpCode;

/**
 * Round 3's churn: against a server as the WL paclet runs it, a few connections fill its event
 * queue with compressed messages that inflate to its message limit, then thousands of connections
 * send a complete upgrade request with a 6 KB query and close at once. A full queue must read no
 * request head (each "Open" would add to it), and what it holds must stay within its bound.
 */
final class EventQueueChurn extends Attack {

    private final List<RawWs> fillers = new ArrayList<>();
    private long sent;
    private long bound;
    private int churned;

    @Override
    String name() {
        return "event-queue-churn";
    }

    @Override
    String description(Scale scale) {
        return "a WL-style server's queue filled by 12 compressed messages of 15/16 of its limit; then " + scale.count(3000, 300)
                + " connections each send an upgrade request with a 6 KB query and close";
    }

    @Override
    String mode() {
        return "events";
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        int size = EventQueueInProgress.messageBytes(server.maxHeap);
        bound = EventQueueInProgress.queueBound(server.maxHeap);
        byte[] message = RawWs.frame(true, true, OpCode.TEXT, Compressed.withRatio(size, 150));
        for (int i = 0; i < 12; i++) {
            RawWs ws = RawWs.open(server.port, true);
            fillers.add(ws);
            ws.write(message);
        }
        sent = fillers.stream().mapToLong(RawWs::sent).sum();
        Thread.sleep(scale.millis(1_000, 500));
        byte[] request = ("GET /churn?q=" + "c".repeat(6_000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < scale.count(3000, 300); i++) {
            try (Socket s = new Socket("127.0.0.1", server.port)) {
                OutputStream out = s.getOutputStream();
                out.write(request);
                sent += request.length;
                churned++;
            } catch (java.io.IOException e) {
                // refused while the server is busy: the attack goes on
            }
        }
        Thread.sleep(scale.millis(2_000, 1_000));
    }

    @Override
    long bytesSent() {
        return sent;
    }

    @Override
    String detail() {
        return churned + " churned; queue bound " + bound / MIB + " MiB";
    }

    /** The queue within its bound, messages in progress within the inbound budget. */
    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        Bounds.heapHeldAtMost(row, bound + EventQueueInProgress.inboundHardLimit(row.heapMax) + Bounds.SLACK, problems);
        return problems;
    }

    @Override
    public void close() {
        fillers.forEach(RawWs::close);
    }

}
