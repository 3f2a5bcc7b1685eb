package wsjava.bench.attack;

import java.util.ArrayList;
import java.util.List;
import wsjava.protocol.OpCode;

/**
 * Issue 20, item 3 (the ratio cap): connections send compressed messages that inflate a thousand
 * times (16 MiB from 16 KB on a large heap). Past the first MiB the server must refuse anything that inflates more
 * than its ratio cap (200) with close code 1009, having inflated little more than that MiB.
 */
final class InflationBomb extends Attack {

    private final List<RawWs> bombers = new ArrayList<>();
    private long sent;
    private int got1009;

    @Override
    String name() {
        return "inflation-bomb";
    }

    @Override
    String description(Scale scale) {
        return scale.count(40, 10) + " connections each send a compressed message of about a thousandth of the message limit that inflates to it";
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        byte[] bomb = RawWs.frame(true, true, OpCode.BINARY, Compressed.bomb((int) Bounds.maxMessage(server.maxHeap) - 1024));
        for (int i = 0; i < scale.count(40, 10); i++) {
            RawWs ws = RawWs.open(server.port, true);
            bombers.add(ws);
            ws.write(bomb);
        }
        sent = bombers.stream().mapToLong(RawWs::sent).sum();
        for (RawWs ws : bombers) {
            ws.socket.setSoTimeout(10_000);
            if (ServerFrames.closeCode(ws.input()) == 1009) {
                got1009++;
            }
        }
    }

    @Override
    long bytesSent() {
        return sent;
    }

    @Override
    String detail() {
        return got1009 + " of " + bombers.size() + " got 1009";
    }

    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        if (got1009 != bombers.size()) {
            problems.add("only " + got1009 + " of " + bombers.size() + " bombs got close code 1009");
        }
        return problems;
    }

    @Override
    public void close() {
        bombers.forEach(RawWs::close);
    }
}
