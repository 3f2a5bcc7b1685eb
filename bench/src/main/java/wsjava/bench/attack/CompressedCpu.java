package wsjava.bench.attack;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import wsjava.protocol.OpCode;

/**
 * Issue 20, item 5: two connections send compressed messages that inflate to the message limit
 * (16 MiB on a large heap; a little over 190 times, just under the ratio cap of 200) back to back,
 * and read the echoes, which the server compresses again. That work must not starve the other
 * connections of their I/O thread: a connection gets a bounded amount of inflating per loop pass,
 * and large compressions run off the I/O threads.
 */
final class CompressedCpu extends Attack {

    private Flood flood;
    private final List<Thread> readers = new ArrayList<>();

    @Override
    String name() {
        return "compressed-cpu";
    }

    @Override
    String description(Scale scale) {
        return "2 connections send compressed messages of the limit (16 MiB on a large heap) back to back for "
                + scale.millis(10_000, 4_000) / 1000 + " s and read the echoes";
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        int size = (int) Bounds.maxMessage(server.maxHeap) - 1024;
        byte[] message = RawWs.repeated(RawWs.frame(true, true, OpCode.BINARY, Compressed.withRatio(size, 190)), 4);
        long millis = scale.millis(10_000, 4_000);
        flood = Flood.start(server.port, 2, true, message, millis, 4_096 * MIB);
        for (RawWs ws : flood.connections()) {
            Thread reader = new Thread(() -> drain(ws), "echo-reader");
            reader.setDaemon(true);
            reader.start();
            readers.add(reader);
        }
        flood.awaitSenders(millis + 10_000);
    }

    private static void drain(RawWs ws) {
        try {
            ws.socket.setSoTimeout(0);
            while (true) {
                ServerFrames.skipFrame(ws.input());
            }
        } catch (IOException e) {
            // closed
        }
    }

    @Override
    long bytesSent() {
        return flood == null ? 0 : flood.bytesSent();
    }

    /** The bystander's p99 is checked for every attack; here also the work per byte, and what the compressions hold. */
    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        Bounds.workAtMost(row, Bounds.COMPRESSED_CPU_SECONDS_PER_MB, problems);
        // Echoes waiting for a compression worker are held output, bounded by the output budget, beside the inbound bound.
        Bounds.heapHeldAtMost(row, Bounds.inboundHardLimit(row) + Bounds.outputBudget(row.heapMax) + Bounds.SLACK, problems);
        return problems;
    }

    @Override
    public void close() {
        if (flood != null) {
            flood.close();
        }
    }
}
