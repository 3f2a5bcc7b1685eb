package wsjava.bench.attack;

import java.util.ArrayList;
import java.util.List;
import wsjava.protocol.OpCode;

/**
 * Issue 20, item 3 (the ratio cap): connections send compressed messages that inflate a thousand
 * times (16 MiB from 16 KB on a large heap), all at once. Past the first MiB a message may inflate
 * more than the ratio cap (200) only from an allowance the whole server shares (one message limit,
 * refilled over 30 s), so a lone such message is delivered; the flood must get 1009 once that
 * allowance is spent: the bombs echoed may not have inflated more past the cap than it granted.
 */
final class InflationBomb extends Attack {

    private final List<RawWs> bombers = new ArrayList<>();
    private long sent;
    private int got1009;
    private int echoed;
    private long pastCapPerBomb;
    private long limit;
    private double seconds;

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
        limit = Bounds.maxMessage(server.maxHeap);
        byte[] deflated = Compressed.bomb((int) limit - 1024);
        pastCapPerBomb = limit - 1024 - Math.max(MIB, 200L * deflated.length);
        byte[] bomb = RawWs.frame(true, true, OpCode.BINARY, deflated);
        long started = System.nanoTime();
        for (int i = 0; i < scale.count(40, 10); i++) {
            RawWs ws = RawWs.open(server.port, true);
            bombers.add(ws);
            ws.write(bomb);
        }
        sent = bombers.stream().mapToLong(RawWs::sent).sum();
        for (RawWs ws : bombers) {
            ws.socket.setSoTimeout(10_000);
            int code = firstFrameCloseCode(ws);
            if (code == 1009) {
                got1009++;
            } else if (code == 0) {
                echoed++;
            }
        }
        seconds = (System.nanoTime() - started) / 1e9;
    }

    /** The close code if the server's first frame is a close, 0 if it is the echo, -1 if the connection ended. */
    private static int firstFrameCloseCode(RawWs ws) {
        try {
            long header = ServerFrames.header(ws.input());
            byte[] payload = ws.input().readNBytes((int) (header & 0xFFFF_FFFFL));
            if ((header >>> 56) != OpCode.CLOSE) {
                return 0;
            }
            return payload.length >= 2 ? (payload[0] & 0xFF) << 8 | (payload[1] & 0xFF) : 1005;
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    @Override
    long bytesSent() {
        return sent;
    }

    @Override
    String detail() {
        return got1009 + " of " + bombers.size() + " got 1009, " + echoed + " echoed (the shared allowance)";
    }

    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        if (got1009 + echoed != bombers.size()) {
            problems.add((bombers.size() - got1009 - echoed) + " of " + bombers.size() + " bombs got neither 1009 nor their echo");
        }
        double granted = limit + seconds * limit / wsjava.protocol.InflationAllowance.REFILL_SECONDS;
        if (echoed * pastCapPerBomb > granted) {
            problems.add(echoed + " bombs echoed in " + String.format(java.util.Locale.ROOT, "%.1f", seconds)
                    + " s: more than the shared allowance grants past the ratio cap");
        }
        return problems;
    }

    @Override
    public void close() {
        bombers.forEach(RawWs::close);
    }
}
