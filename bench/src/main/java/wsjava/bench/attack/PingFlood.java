package wsjava.bench.attack;

import java.util.List;
import wsjava.protocol.OpCode;

/**
 * Issue 20, item 1: connections send empty pings (6 bytes each) as fast as they can and never read
 * a pong. The server may keep one pong per connection (the latest; RFC 6455 section 5.5.3), so what
 * it holds must not grow with the pings.
 */
final class PingFlood extends SmallFrameFlood {

    @Override
    String name() {
        return "ping-flood";
    }

    @Override
    String description(Scale scale) {
        return connections(scale) + " connections send empty pings for " + millis(scale) / 1000 + " s and never read";
    }

    @Override
    byte[] frame() {
        return RawWs.frame(true, false, OpCode.PING, new byte[0]);
    }

    @Override
    int connections(Scale scale) {
        return scale.count(150, 40);
    }

    /** One pong and at most one read's worth of unparsed pings per connection. */
    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        Bounds.workAtMost(row, Bounds.PLAIN_CPU_SECONDS_PER_MB, problems);
        Bounds.heapHeldAtMost(row, connections * Bounds.PER_FLOODING_CONNECTION + Bounds.SLACK, problems);
        return problems;
    }
}
