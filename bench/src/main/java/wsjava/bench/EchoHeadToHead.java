package wsjava.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The echo run's ratios, measured so that drift on a shared machine cannot decide them: the servers
 * compared (WSJava, uWebSockets, Netty) run at the same time, all pinned to one core and idle unless
 * measured, and the C client visits them in turn, round after round, so each round measures all of
 * them within a few seconds. A ratio is the quotient of the medians. Both sides' CPU is kept per
 * round; the median client CPU is printed so a client-bound comparison shows.
 */
final class EchoHeadToHead {

    static final List<String> COMPARED = List.of("WSJava", "uWebSockets", "Netty");

    /** Median msgs/s and median client CPU (%) of one server at one size. */
    static final class Median {
        final double messagesPerSecond;
        final double clientCpu;
        final double serverCpu;

        Median(double messagesPerSecond, double clientCpu, double serverCpu) {
            this.messagesPerSecond = messagesPerSecond;
            this.clientCpu = clientCpu;
            this.serverCpu = serverCpu;
        }
    }

    private EchoHeadToHead() {
    }

    /** Returns "server|size" to its medians; prints a table and writes echo-head-to-head.csv. */
    static Map<String, Median> run(List<EchoBench.Peer> peers, CLoadClient client, int[] sizes, int connections, int rounds,
                                   double seconds, boolean pin, Path out, Progress progress) throws IOException, InterruptedException {
        List<EchoBench.Peer> compared = new ArrayList<>();
        for (EchoBench.Peer p : peers) {
            if (COMPARED.contains(p.name)) {
                compared.add(p);
            }
        }
        Map<String, Median> medians = new LinkedHashMap<>();
        List<Process> servers = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        try {
            for (EchoBench.Peer p : compared) {
                int port = EchoBench.freePort();
                servers.add(EchoBench.start(p, port, pin, out));
                ports.add(port);
                EchoBench.warmUp(port);
            }
            for (int size : sizes) {
                double[][] rate = new double[compared.size()][rounds];
                double[][] clientCpu = new double[compared.size()][rounds];
                double[][] serverCpu = new double[compared.size()][rounds];
                for (int i = 0; i < compared.size(); i++) {
                    client.run(ports.get(i), connections, size, 0, 1.0);      // warm-up at this size
                }
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < compared.size(); i++) {
                        progress.detail("head to head " + MaskBench.sizeName(size) + " round " + (r + 1) + " " + compared.get(i).name);
                        long pid = servers.get(i).pid();
                        double cpu0 = wsjava.bench.deflate.ProcessCpu.seconds(pid);
                        long t0 = System.nanoTime();
                        CLoadClient.Result res = client.run(ports.get(i), connections, size, 0.2, seconds);
                        double wall = (System.nanoTime() - t0) / 1e9;
                        rate[i][r] = res.messagesPerSecond;
                        clientCpu[i][r] = 100 * res.cpuShare;
                        serverCpu[i][r] = 100 * (wsjava.bench.deflate.ProcessCpu.seconds(pid) - cpu0) / wall;
                        if (res.mismatches > 0) {
                            throw new IOException(compared.get(i).name + " echoed " + res.mismatches + " wrong messages");
                        }
                    }
                }
                for (int i = 0; i < compared.size(); i++) {
                    medians.put(compared.get(i).name + "|" + size, new Median(median(rate[i]), median(clientCpu[i]), median(serverCpu[i])));
                }
                progress.advance(1);
            }
        } finally {
            for (Process s : servers) {
                EchoBench.stop(s);
            }
        }
        Report table = new Report(List.of("size", "server", "median msgs/s", "server CPU %", "client CPU %", "x uWebSockets", "x Netty"));
        for (int size : sizes) {
            for (EchoBench.Peer p : compared) {
                Median m = medians.get(p.name + "|" + size);
                table.add(List.of(MaskBench.sizeName(size), p.name, Report.fixed(m.messagesPerSecond, 0), Report.fixed(m.serverCpu, 0),
                        Report.fixed(m.clientCpu, 0) + (m.clientCpu > 90 ? " *" : ""),
                        ratio(m, medians.get("uWebSockets|" + size)), ratio(m, medians.get("Netty|" + size))));
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "head to head: %d connections, %d rounds of %.1f s, servers running side by side (* = client over 90%% of its core)%n",
                connections, rounds, seconds);
        table.print(System.out);
        table.writeCsv(out.resolve("echo-head-to-head.csv"));
        return medians;
    }

    static String ratio(Median a, Median b) {
        return a == null || b == null || b.messagesPerSecond == 0 ? "not run" : Report.fixed(a.messagesPerSecond / b.messagesPerSecond, 2) + "x";
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
