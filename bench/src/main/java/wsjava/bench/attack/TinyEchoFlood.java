package wsjava.bench.attack;

import java.util.List;
import wsjava.protocol.OpCode;

/**
 * Issue 20, item 1 (its second half): connections send 1-byte binary messages as fast as they can
 * and never read the echoes. Each echo must be held at its real cost, and reading must pause once
 * that cost passes the read-pause threshold.
 */
final class TinyEchoFlood extends SmallFrameFlood {

    @Override
    String name() {
        return "tiny-echo-flood";
    }

    @Override
    String description(Scale scale) {
        return connections(scale) + " connections send 1-byte messages for " + millis(scale) / 1000 + " s and never read the echoes";
    }

    @Override
    byte[] frame() {
        return RawWs.frame(true, false, OpCode.BINARY, new byte[] {42});
    }

    @Override
    int connections(Scale scale) {
        return scale.count(20, 10);
    }

    /** Per connection: the read-pause threshold of queued echoes, plus one read's worth of them and of unparsed input. */
    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        Bounds.workAtMost(row, Bounds.PLAIN_CPU_SECONDS_PER_MB, problems);
        Bounds.heapHeldAtMost(row, connections * (Bounds.READ_PAUSE + 2 * Bounds.PER_FLOODING_CONNECTION) + Bounds.SLACK, problems);
        return problems;
    }
}
