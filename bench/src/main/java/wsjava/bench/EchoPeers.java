package wsjava.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import wsjava.bench.peers.NettyTransport;

/**
 * The echo run's line-up: the floor first (every other row is a multiple of its cost, so its
 * cells must exist before theirs), the floor again in Java on NIO, on epoll through FFM and on
 * io_uring through FFM (what the JVM and its transport add before any server code), the Java servers, and the rows that need something of the
 * machine: Netty on io_uring (the kernel must allow it) and uWebSockets (a checkout). A row that
 * cannot run here says why and is left out. {@code --only} keeps the rows it names.
 */
final class EchoPeers {

    static final String NETTY_IO_URING = "Netty io_uring";
    static final String NIO_FLOOR = "NioFloor";
    /** What names WSJava's row on its FFM transport: "WSJava FFM (JDK 25)". */
    static final String FFM = "FFM";

    private EchoPeers() {
    }

    /**
     * The line-up; {@code only} (comma-separated names, or null for all) keeps the rows it names, a
     * "NAME (JDK n)" or "NAME (baseline)" row by its NAME; {@code baseline} (or null) adds WSJava from
     * that jar right after WSJava.
     */
    static List<EchoBench.Peer> lineUp(Path nativeDir, String only, Path baseline) throws IOException, InterruptedException {
        List<EchoBench.Peer> peers = new ArrayList<>();
        if (named(FloorPeer.NAME, only)) {
            add(peers, FloorPeer.build(nativeDir));
        }
        peers.add(EchoBench.peer(NIO_FLOOR, "wsjava.bench.NioFloor", List.of()));
        if (named(FfmFloorPeer.NAME, only)) {
            add(peers, FfmFloorPeer.build(nativeDir, FfmFloorPeer.NAME));
        }
        if (named(FfmFloorPeer.URING, only)) {
            String refused = NettyTransport.ioUringUnavailable();
            if (refused == null) {
                add(peers, FfmFloorPeer.build(nativeDir, FfmFloorPeer.URING));
            } else {
                System.out.println(FfmFloorPeer.URING + ": not run (io_uring is not available here: " + refused + ")");
            }
        }
        peers.addAll(EchoBench.PEERS);
        if (baseline != null) {
            peers.add(peers.indexOf(EchoBench.PEERS.get(0)) + 1, BaselinePeer.of(baseline));
        }
        if (named(NETTY_IO_URING, only)) {
            String refused = NettyTransport.ioUringUnavailable();
            if (refused == null) {
                peers.add(EchoBench.peer(NETTY_IO_URING, "wsjava.bench.peers.NettyEchoServer", List.of("--io_uring")));
            } else {
                System.out.println(NETTY_IO_URING + ": not run (io_uring is not available here: " + refused + ")");
            }
        }
        if (named("uWebSockets", only)) {
            add(peers, UwsPeer.build(nativeDir));
        }
        peers.removeIf(p -> !named(p.name, only));
        return peers;
    }

    /**
     * WSJava (on NIO, then on its FFM transport) and the NIO floor once more on a newer JDK (the
     * head-to-head runs them beside the others), where they are in the line-up.
     */
    static List<EchoBench.Peer> onNewerJdk(List<EchoBench.Peer> peers) {
        List<EchoBench.Peer> newer = new ArrayList<>();
        for (EchoBench.Peer p : peers) {
            if (p.name.equals("WSJava")) {
                add(newer, NewerJdkPeer.find(p, "nio"));
                add(newer, NewerJdkPeer.find(p, "ffm"));
            } else if (p.name.equals(NIO_FLOOR)) {
                add(newer, NewerJdkPeer.find(p));
            }
        }
        return newer;
    }

    /** Whether {@code --only}'s list keeps the row {@code name}: all rows without one; else by name, "NAME (...)" by NAME. */
    static boolean named(String name, String only) {
        if (only == null) {
            return true;
        }
        String base = name.contains(" (") ? name.substring(0, name.indexOf(" (")) : name;
        return Arrays.stream(only.split(",")).map(String::trim).anyMatch(n -> n.equals(name) || n.equals(base));
    }

    private static void add(List<EchoBench.Peer> peers, EchoBench.Peer peer) {
        if (peer != null) {
            peers.add(peer);
        }
    }
}
