package wsjava.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import wsjava.bench.peers.NettyTransport;

/**
 * The echo run's line-up: the floor first (every other row is a multiple of its cost, so its
 * cells must exist before theirs), the Java servers, and the rows that need something of the
 * machine: Netty on io_uring (the kernel must allow it) and uWebSockets (a checkout). A row that
 * cannot run here says why and is left out.
 */
final class EchoPeers {

    static final String NETTY_IO_URING = "Netty io_uring";

    private EchoPeers() {
    }

    static List<EchoBench.Peer> lineUp(Path nativeDir) throws IOException, InterruptedException {
        List<EchoBench.Peer> peers = new ArrayList<>();
        EchoBench.Peer floor = FloorPeer.build(nativeDir);
        if (floor != null) {
            peers.add(floor);
        }
        peers.addAll(EchoBench.PEERS);
        String refused = NettyTransport.ioUringUnavailable();
        if (refused == null) {
            peers.add(EchoBench.peer(NETTY_IO_URING, "wsjava.bench.peers.NettyEchoServer", List.of("--io_uring")));
        } else {
            System.out.println(NETTY_IO_URING + ": not run (io_uring is not available here: " + refused + ")");
        }
        EchoBench.Peer uws = UwsPeer.build(nativeDir);
        if (uws != null) {
            peers.add(uws);
        }
        return peers;
    }
}
