package wsjava.bench.attack;

import java.util.ArrayList;
import java.util.List;
import wsjava.protocol.OpCode;

/**
 * Issue 20, item 10: many connections agree to permessage-deflate with context takeover and each
 * send one 24-byte compressed message, so each keeps a zlib stream in native memory that no heap
 * limit sees. The server must count those streams against a budget (past it, new connections get no
 * context takeover), so its RSS stays bounded however many connections do it.
 */
final class ZlibContexts extends Attack {

    private final List<RawWs> holders = new ArrayList<>();
    private long sent;

    @Override
    String name() {
        return "zlib-contexts";
    }

    @Override
    String description(Scale scale) {
        return scale.count(5_000, 600) + " connections with context takeover each send one 24-byte compressed message and stay";
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        byte[] message = RawWs.frame(true, true, OpCode.TEXT, Compressed.deflate("24 bytes, compressed....".getBytes()));
        for (int i = 0; i < scale.count(5_000, 600); i++) {
            RawWs ws = RawWs.openWithContextTakeover(server.port);
            holders.add(ws);
            ws.write(message);
        }
        sent = holders.stream().mapToLong(RawWs::sent).sum();
        Thread.sleep(1_000);
    }

    @Override
    long bytesSent() {
        return sent;
    }

    /** RSS within the zlib budget plus what the connections cost without compression. */
    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        long bound = row.rssBefore + Bounds.zlibBudget(row.heapMax) + holders.size() * Bounds.PER_IDLE_CONNECTION + Bounds.SLACK;
        if (row.rssUnderAttack > bound) {
            problems.add("RSS " + row.rssUnderAttack / MIB + " MiB is over " + bound / MIB + " MiB");
        }
        return problems;
    }

    @Override
    public void close() {
        holders.forEach(RawWs::close);
    }
}
