package wsjava.bench.attack;

import java.util.List;
import wsjava.protocol.OpCode;

/**
 * Issue 20, item 1: connections send empty pings (6 bytes each) as fast as they can and never read
 * a pong. The server may keep one pong per connection (the latest; RFC 6455 section 5.5.3), so what
 * it holds must not grow with the pings.
 */
final class PingFlood extends Attack {

    private Flood flood;
    private int connections;

    @Override
    String name() {
        return "ping-flood";
    }

    @Override
    String description(Scale scale) {
        return scale.count(150, 40) + " connections send empty pings for " + scale.millis(8_000, 3_000) / 1000 + " s and never read";
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        connections = scale.count(150, 40);
        byte[] block = RawWs.repeated(RawWs.frame(true, false, OpCode.PING, new byte[0]), 2_000);
        long millis = scale.millis(8_000, 3_000);
        flood = Flood.start(server.port, connections, false, block, millis, 512 * MIB);
        flood.awaitSenders(millis + 5_000);
        flood.stopSending();
    }

    @Override
    long bytesSent() {
        return flood == null ? 0 : flood.bytesSent();
    }

    /** One pong and at most one read's worth of unparsed pings per connection. */
    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        Bounds.workAtMost(row, Bounds.PLAIN_CPU_SECONDS_PER_MB, problems);
        Bounds.heapHeldAtMost(row, connections * Bounds.PER_FLOODING_CONNECTION + Bounds.SLACK, problems);
        return problems;
    }

    @Override
    public void close() {
        if (flood != null) {
            flood.close();
        }
    }
}
