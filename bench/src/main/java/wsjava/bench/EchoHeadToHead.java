package wsjava.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The echo run's ratios, measured so that drift on a shared machine cannot decide them: the servers
 * compared (the floor, WSJava, WSJava on a newer JDK where there is one, uWebSockets, Netty on NIO,
 * epoll and io_uring) run
 * at the same time, all pinned to one core and idle unless measured, and the C client visits them in turn, round after round, so each round measures all of
 * them within a few seconds. A ratio is the quotient of the medians. Both sides' CPU is kept per
 * round; the median client CPU is printed so a client-bound comparison shows. The server's CPU is
 * read by the client itself over exactly the window it counted, so its CPU per echoed message
 * compares servers even where the client, not the server, limits msgs/s; a server below half of
 * its core in a cell is marked, since its figure then includes more idle polling.
 */
final class EchoHeadToHead {

    static final List<String> COMPARED = List.of(FloorPeer.NAME, EchoPeers.NIO_FLOOR, FfmFloorPeer.NAME, FfmFloorPeer.URING, "WSJava", "WSJava " + EchoPeers.FFM, "uWebSockets", "Netty",
            "Netty epoll", EchoPeers.NETTY_IO_URING);

    /** The peers of the run that take part, in {@link #COMPARED}'s order (a "NAME (...)" row by its NAME), each on a newer JDK after it. */
    static List<EchoBench.Peer> select(List<EchoBench.Peer> peers, List<EchoBench.Peer> onNewerJdk) {
        List<EchoBench.Peer> compared = new ArrayList<>();
        for (String name : COMPARED) {
            peers.stream().filter(p -> EchoPeers.named(p.name, name)).forEach(compared::add);
            onNewerJdk.stream().filter(p -> p.name.startsWith(name + " (JDK ")).forEach(compared::add);
        }
        return compared;
    }

    /** Medians of one server at one size: msgs/s, client and server CPU (% of a core), server CPU µs per message. */
    static final class Median {
        final double messagesPerSecond;
        final double clientCpu;
        final double serverCpu;
        final double serverMicrosPerMessage;

        Median(double messagesPerSecond, double clientCpu, double serverCpu, double serverMicrosPerMessage) {
            this.messagesPerSecond = messagesPerSecond;
            this.clientCpu = clientCpu;
            this.serverCpu = serverCpu;
            this.serverMicrosPerMessage = serverMicrosPerMessage;
        }
    }

    private EchoHeadToHead() {
    }

    /** Runs {@code compared} side by side; returns "server|size" to its medians; prints a table and writes echo-head-to-head.csv. */
    static Map<String, Median> run(List<EchoBench.Peer> compared, CLoadClient client, int[] sizes, int connections, int rounds,
                                   double seconds, boolean pin, Path out, Progress progress) throws IOException, InterruptedException {
        Map<String, Median> medians = new LinkedHashMap<>();
        List<Process> servers = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        compared = new ArrayList<>(compared);
        try {
            for (Iterator<EchoBench.Peer> it = compared.iterator(); it.hasNext(); ) {
                EchoBench.Peer p = it.next();
                FreshPort.Running running;
                try {
                    running = FreshPort.start(p, pin, out);
                } catch (IOException e) {     // one server that will not start costs its rows, not the run's tables
                    System.out.println(p.name + ": not in the head-to-head, it did not start (" + e.getMessage() + ")");
                    it.remove();
                    continue;
                }
                servers.add(running.process());
                ports.add(running.port());
                EchoBench.warmUp(running.port());
            }
            for (int size : sizes) {
                double[][] rate = new double[compared.size()][rounds];
                double[][] clientCpu = new double[compared.size()][rounds];
                double[][] serverCpu = new double[compared.size()][rounds];
                double[][] micros = new double[compared.size()][rounds];
                for (int i = 0; i < compared.size(); i++) {
                    client.run(ports.get(i), connections, size, 0, 1.0);      // warm-up at this size
                }
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < compared.size(); i++) {
                        progress.detail("head to head " + MaskBench.sizeName(size) + " round " + (r + 1) + " " + compared.get(i).name);
                        CLoadClient.Result res = client.run(ports.get(i), connections, size, 0.2, seconds, servers.get(i).pid());
                        rate[i][r] = res.messagesPerSecond;
                        clientCpu[i][r] = 100 * res.cpuShare;
                        serverCpu[i][r] = 100 * res.serverCpuShare();
                        micros[i][r] = res.serverMicrosPerMessage();
                        if (res.mismatches > 0) {
                            throw new IOException(compared.get(i).name + " echoed " + res.mismatches + " wrong messages");
                        }
                    }
                }
                for (int i = 0; i < compared.size(); i++) {
                    medians.put(compared.get(i).name + "|" + size, new Median(median(rate[i]), median(clientCpu[i]), median(serverCpu[i]), median(micros[i])));
                }
                progress.advance(1);
            }
        } finally {
            for (Process s : servers) {
                EchoBench.stop(s);
            }
        }
        Report table = new Report(List.of("size", "server", "median msgs/s", "server CPU %", "server µs/msg", "µs/msg x floor", "client CPU %",
                "msgs/s x uWS", "msgs/s x Netty", "µs/msg x uWS", "µs/msg x Netty", "µs/msg x Netty epoll"));
        for (int size : sizes) {
            for (EchoBench.Peer p : compared) {
                Median m = medians.get(p.name + "|" + size);
                table.add(List.of(MaskBench.sizeName(size), p.name, Report.fixed(m.messagesPerSecond, 0),
                        Report.fixed(m.serverCpu, 0) + (m.serverCpu < 50 ? " (idle)" : ""), Report.fixed(m.serverMicrosPerMessage, 2),
                        costRatio(m, medians.get(FloorPeer.NAME + "|" + size)),
                        Report.fixed(m.clientCpu, 0) + (m.clientCpu > 90 ? " *" : ""),
                        ratio(m, medians.get("uWebSockets|" + size)), ratio(m, medians.get("Netty|" + size)),
                        costRatio(m, medians.get("uWebSockets|" + size)), costRatio(m, medians.get("Netty|" + size)),
                        costRatio(m, medians.get("Netty epoll|" + size))));
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "head to head: %d connections, %d rounds of %.1f s, servers running side by side (* = client over 90%% of its core;"
                + " (idle) = server under 50%% of its core; µs/msg = server CPU per echoed message over the client's window; a cost ratio under 1 is cheaper)%n",
                connections, rounds, seconds);
        table.print(System.out);
        table.writeCsv(out.resolve("echo-head-to-head.csv"));
        FloorChart.write(out.resolve("echo-cost-over-floor.png"), compared, sizes, medians);
        return medians;
    }

    /** Server CPU per message of {@code a} over {@code b}'s: under 1, {@code a} spends less per message. */
    static String costRatio(Median a, Median b) {
        return a == null || b == null || !(b.serverMicrosPerMessage > 0) ? "not run" : Report.fixed(a.serverMicrosPerMessage / b.serverMicrosPerMessage, 2) + "x";
    }

    /** {@code micros} over the floor's, as "1.18x"; "no floor" where the floor did not run in that cell. */
    static String overFloor(double micros, Double floorMicros) {
        return floorMicros == null || !(floorMicros > 0) || Double.isNaN(micros) ? "no floor" : Report.fixed(micros / floorMicros, 2) + "x";
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
