package wsjava.bench;

import java.io.IOException;
import java.util.List;
import wsjava.bench.deflate.ProcessCpu;

/**
 * One cell of the echo table: throughput from the C client (when built) with both processes' CPU
 * over the window it counted, the server's CPU per echoed message, then latency percentiles from
 * the Java client on the same server. A cell whose client used more than 90% of its core is
 * marked: there the client, not the server, may have set the pace.
 */
final class EchoCell {

    final double messagesPerSecond;
    /** The server's CPU time per echoed message, µs; NaN without the C client. */
    final double serverMicros;
    private final double serverCpu;
    private final double clientCpu;
    private final EchoLoadClient.Result latency;
    private final String note;

    private EchoCell(double messagesPerSecond, double serverMicros, double serverCpu, double clientCpu, EchoLoadClient.Result latency,
                     String note) {
        this.messagesPerSecond = messagesPerSecond;
        this.serverMicros = serverMicros;
        this.serverCpu = serverCpu;
        this.clientCpu = clientCpu;
        this.latency = latency;
        this.note = note;
    }

    static EchoCell measure(CLoadClient cClient, Process server, int port, int connections, int size,
                            double warmup, double measure, boolean smoke) throws IOException, InterruptedException {
        if (cClient == null) {
            double cpu0 = ProcessCpu.seconds(server.pid());
            double self0 = ProcessCpu.seconds(ProcessHandle.current().pid());
            long t0 = System.nanoTime();
            EchoLoadClient.Result r = EchoLoadClient.run(port, connections, size, warmup, measure, Long.MAX_VALUE, null);
            double wall = (System.nanoTime() - t0) / 1e9;
            return new EchoCell(r.messagesPerSecond(), Double.NaN, 100 * (ProcessCpu.seconds(server.pid()) - cpu0) / wall,
                    100 * (ProcessCpu.seconds(ProcessHandle.current().pid()) - self0) / wall, r, stalls(r, connections));
        }
        CLoadClient.Result c = cClient.run(port, connections, size, warmup, measure, server.pid());
        EchoLoadClient.Result r = EchoLoadClient.run(port, connections, size, smoke ? 0.1 : 0.3, smoke ? 0.3 : 1.0, Long.MAX_VALUE, null);
        String note = (c.mismatches == 0 ? "" : c.mismatches + " echoes differed; ") + (c.cpuShare > 0.9 ? "client-bound; " : "")
                + stalls(r, connections);
        return new EchoCell(c.messagesPerSecond, c.serverMicrosPerMessage(), 100 * c.serverCpuShare(), 100 * c.cpuShare, r, note);
    }

    private static String stalls(EchoLoadClient.Result r, int connections) {
        return r.stalledConnections == 0 ? "" : r.stalledConnections + " of " + connections
                + " connections got no echo for the last " + EchoLoadClient.STALL_SECONDS + " s";
    }

    /** The table's columns, in {@link #row}'s order. */
    static final List<String> COLUMNS = List.of("server", "size", "connections", "msgs/s", "server CPU %", "client CPU %",
            "server µs/msg", "µs/msg x floor", "p50 us", "p99 us", "verified MiB", "note");

    /** This cell's row; {@code floorMicros} is the floor's µs/msg in the same cell (null or NaN where it did not run). */
    List<String> row(String server, int size, int connections, Double floorMicros) {
        return List.of(server, MaskBench.sizeName(size), Integer.toString(connections), Report.fixed(messagesPerSecond, 0),
                Report.fixed(serverCpu, 0), Report.fixed(clientCpu, 0), Report.fixed(serverMicros, 2),
                EchoHeadToHead.overFloor(serverMicros, floorMicros), Report.fixed(latency.percentileMicros(50), 1),
                Report.fixed(latency.percentileMicros(99), 1), Report.fixed(latency.verifiedBytes / 1048576.0, 1), note.trim());
    }
}
