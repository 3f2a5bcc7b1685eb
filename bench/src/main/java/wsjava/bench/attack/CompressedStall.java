package wsjava.bench.attack;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import wsjava.protocol.OpCode;

/**
 * Issue 20, item 3: connections each send the first frame of a compressed message that inflates to
 * just under the message limit (15 MiB on a large heap; a little more than 150 times its size, under
 * the ratio cap) and never send the rest. The
 * inflated halves must stay within the server's inbound budget (plus the one overdraft), however many
 * connections do it.
 */
final class CompressedStall extends Attack {

    private final List<RawWs> stalled = new ArrayList<>();
    private long sent;

    @Override
    String name() {
        return "compressed-stall";
    }

    @Override
    String description(Scale scale) {
        return scale.count(60, 20) + " connections each send the first half of a compressed message inflating to 15/16 of the"
                + " message limit, then stall";
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        stall(server.port, scale.count(60, 20), Bounds.largeMessage(server.maxHeap), stalled);
        sent = stalled.stream().mapToLong(RawWs::sent).sum();
        Thread.sleep(scale.millis(3_000, 1_500));      // let the server inflate whatever it will
    }

    /** Opens {@code count} connections, each sending one unfinished compressed message of {@code inflated} bytes. */
    static void stall(int port, int count, int inflated, List<RawWs> into) throws IOException {
        byte[] first = RawWs.frame(false, true, OpCode.TEXT, Compressed.withRatio(inflated, 150));
        for (int i = 0; i < count; i++) {
            RawWs ws = RawWs.open(port, true);
            into.add(ws);
            ws.write(first);
        }
    }

    @Override
    long bytesSent() {
        return sent;
    }

    /** What stalled messages hold together is bounded by the inbound budget and its overdraft. */
    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        Bounds.heapHeldAtMost(row, Bounds.inboundHardLimit(row) + Bounds.SLACK, problems);
        return problems;
    }

    @Override
    public void close() {
        stalled.forEach(RawWs::close);
    }
}
