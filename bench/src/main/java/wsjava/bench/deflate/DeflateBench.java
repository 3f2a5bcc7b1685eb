package wsjava.bench.deflate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import wsjava.bench.BlockingLoad;
import wsjava.bench.EchoBench;
import wsjava.bench.MaskBench;
import wsjava.bench.Options;
import wsjava.bench.Progress;
import wsjava.bench.Report;

/**
 * {@code ./wsjava bench deflate}: compressed echo of WL-expression text against Netty and Jetty
 * with permessage-deflate, one server after another on loopback with the same client (msgs/s,
 * bytes on the wire, both sides' CPU), then what 10,000 connections with deflate agreed cost in
 * memory. Every server keeps its compression context for the connection (the client asks only
 * for client_no_context_takeover, so that sending stays cheap).
 */
public final class DeflateBench {

    private static final List<EchoBench.Peer> PEERS = List.of(
            EchoBench.peer("WSJava", "wsjava.cli.Main", List.of("serve", "--allow-any-origin", "--max-connections", "50000", "--port")),
            EchoBench.peer("Netty", "wsjava.bench.peers.NettyEchoServer", List.of("--deflate")),
            EchoBench.peer("Jetty", "wsjava.bench.peers.JettyEchoServer", List.of()));

    private DeflateBench() {
    }

    /** Runs it; false when an echo was wrong or missing (the notes say which). */
    public static boolean run(List<String> args) throws Exception {
        boolean smoke = args.contains("--smoke");
        boolean quick = args.contains("--quick");
        Path out = Path.of(Options.value(args, "--out", "results"));
        int[] sizes = smoke ? new int[] {1024} : new int[] {1024, 16 * 1024, 256 * 1024, 1024 * 1024};
        int connections = smoke ? 2 : 16;
        double warmup = smoke ? 0.2 : quick ? 0.5 : 1.0;
        double measure = smoke ? 0.5 : quick ? 1.5 : 3.0;
        int memoryCount = Integer.parseInt(Options.value(args, "--connections", smoke ? "50" : "10000"));
        boolean pin = !smoke && EchoBench.canPin();
        System.out.printf(Locale.ROOT, "compressed echo (%s): %d servers x %d sizes, %d connections, %.1f s each%s; then memory with %d connections%n",
                smoke ? "smoke" : quick ? "quick" : "full", PEERS.size(), sizes.length, connections, measure,
                pin ? ", server pinned to core 0" : "", memoryCount);

        Report table = new Report(List.of("server", "text size", "msgs/s", "payload MB/s", "wire / payload", "server CPU %", "client CPU %", "note"));
        Map<String, Double> rate = new LinkedHashMap<>();
        Map<String, Double> throughput = new LinkedHashMap<>();
        Progress progress = new Progress("deflate", (long) PEERS.size() * sizes.length);
        boolean allVerified = true;
        for (EchoBench.Peer peer : PEERS) {
            int port = EchoBench.freePort();
            Process server = EchoBench.start(peer, port, pin, out);
            try {
                for (int size : sizes) {
                    progress.detail(peer.name() + " " + MaskBench.sizeName(size));
                    byte[][] messages = new byte[DeflateEchoClient.VARIANTS][];
                    for (int v = 0; v < messages.length; v++) {
                        messages[v] = WlExpressionText.of(size, size * 31L + v).getBytes(StandardCharsets.UTF_8);
                    }
                    double serverCpu0 = ProcessCpu.seconds(server.pid());
                    double clientCpu0 = ProcessCpu.selfSeconds();
                    long t0 = System.nanoTime();
                    String[] agreed = {""};
                    BlockingLoad.Result r = DeflateEchoClient.run(port, connections, messages, warmup, measure, agreed);
                    double wall = (System.nanoTime() - t0) / 1e9;
                    double serverCpu = 100 * (ProcessCpu.seconds(server.pid()) - serverCpu0) / wall;
                    double clientCpu = 100 * (ProcessCpu.selfSeconds() - clientCpu0) / wall;
                    progress.advance(1);
                    double msgs = r.messages / measure;
                    double mb = msgs * size / 1e6;
                    rate.put(peer.name() + "|" + size, msgs);
                    throughput.put(peer.name() + "|" + MaskBench.sizeName(size), mb);
                    String note = agreed[0].startsWith("permessage-deflate") ? "" : "deflate NOT agreed (" + agreed[0] + "); ";
                    note += r.mismatches == 0 ? "" : r.mismatches + " echoes differed; ";
                    note += r.error.isEmpty() ? "" : r.error;
                    allVerified &= r.mismatches == 0 && r.error.isEmpty() && r.messages > 0;
                    table.add(List.of(peer.name(), MaskBench.sizeName(size), Report.fixed(msgs, 0), Report.fixed(mb, 1),
                            Report.fixed(r.messages == 0 ? Double.NaN : (double) r.wireBytes / (2.0 * r.messages * size), 3),
                            Report.fixed(serverCpu, 0), Report.fixed(clientCpu, 0), note.trim()));
                }
            } finally {
                EchoBench.stop(server);
            }
        }
        progress.finish();
        System.out.println();
        table.print(System.out);
        table.writeCsv(out.resolve("deflate.csv"));
        List<String> names = new ArrayList<>();
        PEERS.forEach(p -> names.add(p.name()));
        List<String> sizeNames = new ArrayList<>();
        for (int size : sizes) {
            sizeNames.add(MaskBench.sizeName(size));
        }
        DeflateChart.write(out.resolve("deflate.png"), names, sizeNames, throughput, connections);
        StringBuilder summary = new StringBuilder("ratios (msgs/s, same run):");
        for (int size : sizes) {
            summary.append(String.format(Locale.ROOT, " %s: WSJava/Netty %s, WSJava/Jetty %s;", MaskBench.sizeName(size),
                    ratio(rate, "WSJava", "Netty", size), ratio(rate, "WSJava", "Jetty", size)));
        }
        System.out.println(summary);
        System.out.println("the load client must not be the bottleneck: compare the CPU columns (the server should be near 100% of its core)");

        Report memory = memory(pin, out, memoryCount, progress);
        System.out.println();
        memory.print(System.out);
        memory.writeCsv(out.resolve("deflate-memory.csv"));
        System.out.println("wrote " + out.resolve("deflate.csv") + ", " + out.resolve("deflate.png") + " and " + out.resolve("deflate-memory.csv"));
        if (!allVerified) {
            System.out.println("SOME ECHOES WERE WRONG OR MISSING: see the notes");
        }
        return allVerified;
    }

    private static Report memory(boolean pin, Path out, int count, Progress progress) throws Exception {
        Report memory = new Report(List.of("server", "state of the connections", "connections", "server RSS MiB", "RSS before MiB"));
        List<String> neverRelease = List.of("--compression-idle-release", "3600000");
        List<Object[]> cases = List.of(
                new Object[] {PEERS.get(0), List.of(), false, 0, "deflate agreed, no message yet"},
                new Object[] {PEERS.get(0), neverRelease, true, 0, "one compressed message each, context kept"},
                new Object[] {PEERS.get(0), List.of("--compression-idle-release", "1000"), true, 2500,
                    "one compressed message each, then 2.5 s idle (compressor freed after 1 s)"},
                new Object[] {PEERS.get(0), List.of("--no-context-takeover"), true, 0, "one compressed message each, --no-context-takeover"},
                new Object[] {PEERS.get(1), List.of(), true, 0, "one compressed message each, context kept"},
                new Object[] {PEERS.get(2), List.of(), true, 0, "one compressed message each, context kept"});
        for (Object[] c : cases) {
            EchoBench.Peer base = (EchoBench.Peer) c[0];
            @SuppressWarnings("unchecked") List<String> extra = (List<String>) c[1];
            List<String> args = new ArrayList<>(base.args());
            args.addAll(Math.min(1, args.size()), extra);      // after "serve"; the port comes last
            EchoBench.Peer peer = EchoBench.peer(base.name(), base.mainClass(), args);
            int port = EchoBench.freePort();
            Process server = EchoBench.start(peer, port, pin, out);
            try {
                Thread.sleep(500);
                long before = wsjava.bench.IdleConnections.rssKiB(server.pid());
                progress.detail(peer.name() + ": " + count + " connections, " + c[4]);
                int[] held = new int[1];
                long rss = DeflateMemory.hold(port, count, (Boolean) c[2], (Integer) c[3], server.pid(), held);
                memory.add(List.of(peer.name(), (String) c[4], Integer.toString(held[0]), Report.fixed(rss / 1024.0, 1), Report.fixed(before / 1024.0, 1)));
            } finally {
                EchoBench.stop(server);
            }
        }
        return memory;
    }

    private static String ratio(Map<String, Double> rate, String a, String b, int size) {
        Double x = rate.get(a + "|" + size);
        Double y = rate.get(b + "|" + size);
        return x == null || y == null || y == 0 ? "n/a" : Report.fixed(x / y, 2) + "x";
    }
}
