package wsjava.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * End-to-end echo: starts the floor (a bare C echo, see {@link FloorPeer}), WSJava, Netty (NIO,
 * epoll, io_uring), Java-WebSocket, Jetty and uWebSockets (where built) one after another on
 * loopback, drives each with the same closed-loop client and settings, and reports msgs/s, server
 * CPU per message (also as a multiple of the floor's in the same cell) and latency
 * percentiles, a 16 MiB round trip, and the memory for holding idle connections. Where taskset
 * exists, the server runs on core 0 (this client runs on core 1: the launcher pins it). Every
 * server gets the same JVM settings: G1, -Xms64m -Xmx1g. (Without -Xms the JVM starts with 1/64
 * of RAM as heap, and RSS mostly shows how much of that young generation got touched.)
 */
public final class EchoBench {

    /** One server under test: how to start it. */
    public static final class Peer {
        final String name;
        final String mainClass;
        final List<String> args;
        /** A native server's command (the port is appended), or null for a Java main class. */
        final List<String> nativeCommand;

        Peer(String name, String mainClass, List<String> args) {
            this(name, mainClass, args, null);
        }

        Peer(String name, String mainClass, List<String> args, List<String> nativeCommand) {
            this.name = name;
            this.mainClass = mainClass;
            this.args = args;
            this.nativeCommand = nativeCommand;
        }

        public String name() { return name; }
        public String mainClass() { return mainClass; }
        public List<String> args() { return args; }
    }

    /** A server to start as {@code java -cp ... mainClass args... port}. */
    public static Peer peer(String name, String mainClass, List<String> args) {
        return new Peer(name, mainClass, args);
    }

    /** A native server, started as {@code command... port}. */
    public static Peer nativePeer(String name, List<String> command) {
        return new Peer(name, null, List.of(), command);
    }

    /**
     * Whether the server can be pinned to core 0 (taskset and at least two cores). The machine's
     * cores, not the JVM's: the launcher pins this JVM to core 1, and then availableProcessors()
     * says 1 (which once left every server unpinned, sharing the client's core).
     */
    public static boolean canPin() {
        return onPath("taskset") && machineCores() >= 2;
    }

    static int machineCores() {
        try {
            return (int) Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("processor")).count();
        } catch (IOException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /** Every Java server's JVM settings. */
    static final List<String> JVM_FLAGS = List.of("-Xms64m", "-Xmx1g", "-XX:+UseG1GC", "--add-modules", "jdk.incubator.vector");

    public static final List<Peer> PEERS = List.of(
            new Peer("WSJava", "wsjava.cli.Main", List.of("serve", "--allow-any-origin", "--max-connections", "50000", "--port")),
            new Peer("Netty", "wsjava.bench.peers.NettyEchoServer", List.of()),
            new Peer("Netty epoll", "wsjava.bench.peers.NettyEchoServer", List.of("--epoll")),
            new Peer("Java-WebSocket", "wsjava.bench.peers.JavaWebSocketEchoServer", List.of()),
            new Peer("Jetty", "wsjava.bench.peers.JettyEchoServer", List.of()));

    private EchoBench() {
    }

    public static void run(List<String> args) throws Exception {
        boolean smoke = args.contains("--smoke");
        boolean quick = args.contains("--quick");
        Path out = Path.of(Options.value(args, "--out", "results"));
        String sizeList = Options.value(args, "--sizes", smoke ? "64" : "64,1024,16384,65536,1048576");    // bytes, e.g. --sizes 64,16384
        int[] sizes = Arrays.stream(sizeList.split(",")).mapToInt(v -> Integer.parseInt(v.trim())).toArray();
        int[] connectionCounts = Arrays.stream(Options.value(args, "--connections", smoke ? "1,2" : "1,16,64").split(","))
                .mapToInt(v -> Integer.parseInt(v.trim())).toArray();
        double warmup = smoke ? 0.2 : quick ? 0.5 : 1.0;
        double measure = smoke ? 0.5 : quick ? 1.5 : 3.0;
        int idle = Integer.parseInt(Options.value(args, "--idle", smoke ? "50" : "10000"));
        int bigSize = smoke ? 1 << 20 : 16 << 20;
        boolean pin = !smoke && canPin();
        String baseline = Options.value(args, "--baseline", null);       // another build's jar, e.g. the commit before a change
        List<Peer> peers = EchoPeers.lineUp(out.resolve("native"), Options.value(args, "--only", null), baseline == null ? null : Path.of(baseline));
        CLoadClient cClient = CLoadClient.build(out.resolve("native"));
        System.out.printf(Locale.ROOT, "echo benchmark (%s): %d servers x %d sizes x %d connection counts, %.1f s each%s; throughput from %s%n",
                smoke ? "smoke" : quick ? "quick" : "full", peers.size(), sizes.length, connectionCounts.length, measure,
                pin ? ", server pinned to core 0" : "", cClient == null ? "the Java client" : "the C client, latency from the Java client");

        Report table = new Report(EchoCell.COLUMNS);
        Report extras = new Report(List.of("server", "round trip of " + MaskBench.sizeName(bigSize) + " (median ms)",
                "idle connections held", "server RSS MiB", "RSS before connecting MiB", "note"));
        Map<String, Double> rate = new LinkedHashMap<>();
        Map<String, Double> floorMicros = new HashMap<>();     // "size|connections": the floor's µs/msg, measured first
        int rounds = Integer.parseInt(Options.value(args, "--rounds", smoke ? "1" : quick ? "3" : "7"));
        Progress progress = new Progress("echo", (long) peers.size() * sizes.length * connectionCounts.length
                + (cClient == null ? 0 : sizes.length));
        for (Peer peer : peers) {
            FreshPort.Running running = FreshPort.start(peer, pin, out);
            int port = running.port();
            Process server = running.process();
            try {
                String warmUpNote = warmUp(port);
                if (!warmUpNote.isEmpty()) {
                    System.out.println();
                    System.out.println(peer.name + ": " + warmUpNote);
                }
                for (int size : sizes) {
                    for (int conns : connectionCounts) {
                        progress.detail(peer.name + " " + MaskBench.sizeName(size) + " x" + conns);
                        EchoCell cell = EchoCell.measure(cClient, server, port, conns, size, warmup, measure, smoke);
                        progress.advance(1);
                        rate.put(peer.name + "|" + size + "|" + conns, cell.messagesPerSecond);
                        if (peer.name.equals(FloorPeer.NAME)) {
                            floorMicros.put(size + "|" + conns, cell.serverMicros);
                        }
                        table.add(cell.row(peer.name, size, conns, floorMicros.get(size + "|" + conns)));
                    }
                }
                double[] big = EchoLoadClient.largeRoundTrips(port, bigSize, smoke ? 2 : 5);
                Arrays.sort(big);
                // Idle connections on a fresh server, so its memory shows the connections, not the load runs.
                // A fresh port too: on a shared machine the old one may be taken, or not yet free (Jetty once failed to bind it).
                stop(server);
                running = FreshPort.start(peer, pin, out);
                int idlePort = running.port();
                server = running.process();
                Thread.sleep(500);
                long before = IdleConnections.rssKiB(server.pid());
                progress.detail(peer.name + " holding " + idle + " idle connections");
                IdleConnections.Held held = IdleConnections.hold(idlePort, idle, server.pid(), null);
                extras.add(List.of(peer.name, Report.fixed(big[big.length / 2], 1), Integer.toString(held.connections),
                        mib(held.serverRssKiB), mib(before), held.note));
            } finally {
                stop(server);
            }
        }
        int mid = connectionCounts.length > 1 ? connectionCounts[connectionCounts.length > 2 ? 1 : 0] : connectionCounts[0];
        List<Peer> onNewerJdk = EchoPeers.onNewerJdk(peers);
        Peer newerJdk = onNewerJdk.stream().filter(p -> p.name.startsWith("WSJava ")).findFirst().orElse(null);
        List<Peer> compared = EchoHeadToHead.select(peers, onNewerJdk);
        Map<String, EchoHeadToHead.Median> headToHead = cClient == null ? Map.of()
                : EchoHeadToHead.run(compared, cClient, sizes, mid, rounds, smoke ? 0.3 : 1.0, pin, out, progress);
        progress.finish();
        System.out.println();
        table.print(System.out);
        System.out.println();
        extras.print(System.out);
        table.writeCsv(out.resolve("echo.csv"));
        extras.writeCsv(out.resolve("echo-extras.csv"));
        List<String> names = new ArrayList<>();
        peers.forEach(p -> names.add(p.name));
        List<Path> charts = EchoCharts.write(out, names, sizes, connectionCounts, rate);
        System.out.println("wrote " + out.resolve("echo.csv") + ", " + out.resolve("echo-extras.csv") + " and " + charts);
        EchoSummary.print(sizes, mid, rounds, rate, headToHead, newerJdk);
        extras.rows().stream().filter(r -> r.get(0).equals("WSJava")).forEach(r -> System.out.println("idle: " + r.get(2)
                + " connections held by WSJava in " + r.get(3) + " MiB RSS (target: 10000 in under 300 MB)"));
    }

    /**
     * A few round trips on a throwaway connection before measuring. A server whose first
     * connection gets no echo (Java-WebSocket did this now and then) gets up to two more tries, so
     * a start-up stall is reported here instead of landing in the first measured cell.
     */
    static String warmUp(int port) throws IOException {
        for (int attempt = 1; attempt <= 3; attempt++) {
            EchoLoadClient.Result r = EchoLoadClient.run(port, 1, 64, 0, 2.0, 200, null);
            if (r.messages > 0) {
                return attempt == 1 ? "" : "warm-up needed " + attempt + " connections (the first got no echo for 2 s)";
            }
        }
        return "warm-up: no echo on 3 connections";
    }

    private static String mib(long kib) {
        return kib < 0 ? "n/a" : Report.fixed(kib / 1024.0, 1);
    }

    public static void stop(Process server) throws InterruptedException {
        server.destroy();
        if (!server.waitFor(10, TimeUnit.SECONDS)) {
            server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The servers that printed their ready line (the start-up watchdog leaves them alone). */
    private static final Set<Process> ready = ConcurrentHashMap.newKeySet();

    /** How long a server may take to print its ready line (a JVM on a loaded 2-core machine can take several seconds). */
    static final int READY_SECONDS = 30;

    public static Process start(Peer peer, int port, boolean pin, Path out) throws IOException, InterruptedException {
        return start(peer, port, pin, out, READY_SECONDS);
    }

    /**
     * A row named for WSJava's FFM transport must measure it: the server says on stderr, before its
     * ready line, which transport it runs on, and one that fell back to NIO ends the run loudly.
     */
    private static void requireFfm(Peer peer, Process p, Path log) throws IOException {
        if (peer.name.startsWith("WSJava " + EchoPeers.FFM + " ") && !Files.readString(log).contains("FFM transport")) {
            p.destroyForcibly();
            throw new IOException(peer.name + " does not run on FFM: " + Files.readString(log).trim());
        }
    }

    static Process start(Peer peer, int port, boolean pin, Path out, int readySeconds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (pin) {
            command.addAll(List.of("taskset", "-c", "0"));
        }
        if (peer.nativeCommand != null) {
            command.addAll(peer.nativeCommand);
        } else {
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(JVM_FLAGS);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), peer.mainClass));
            command.addAll(peer.args);
        }
        command.add(Integer.toString(port));
        Files.createDirectories(out);
        Process p = new ProcessBuilder(command).redirectError(out.resolve("server-" + peer.name + ".log").toFile()).start();
        // A server that neither gets ready nor exits (a JVM whose bind failed but whose threads live on) would block
        // readLine below for ever: ended after readySeconds, its output ends and the start fails.
        CompletableFuture.delayedExecutor(readySeconds, TimeUnit.SECONDS).execute(() -> {
            if (!ready.remove(p)) {
                p.destroyForcibly();
            }
        });
        BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.currentTimeMillis() + readySeconds * 1000L;
        while (System.currentTimeMillis() < deadline) {
            String line = lines.readLine();
            if (line == null) {
                throw new IOException(peer.name + " exited or was not ready within " + readySeconds + " s; see " + out.resolve("server-" + peer.name + ".log"));
            }
            if (line.startsWith("listening on")) {
                ready.add(p);
                Thread drain = new Thread(() -> {
                    try {
                        while (lines.readLine() != null) {
                            // keep the pipe from filling
                        }
                    } catch (IOException ignored) {
                        // the server exited
                    }
                });
                drain.setDaemon(true);
                drain.start();
                requireFfm(peer, p, out.resolve("server-" + peer.name + ".log"));
                return p;
            }
        }
        p.destroyForcibly();
        throw new IOException(peer.name + " did not print its ready line within " + readySeconds + " s");
    }

    /** A port for a server started in another process: see {@link ListenPort}. */
    public static int freePort() throws IOException {
        return ListenPort.free();
    }

    static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
