package wsjava.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The floor of the echo comparison: {@code bench/c/wsfloor.c}, a minimal WebSocket echo in C on
 * epoll (one recv and one send per readable event, frames unmasked in place, no allocation per
 * message). What it costs per message is what any server has to pay the kernel; every other row
 * is printed as a multiple of it. Built with gcc -O3 like the C load client, on first use.
 */
final class FloorPeer {

    static final String NAME = "floor";

    private FloorPeer() {
    }

    /** The peer, or null (with the reason printed) when it cannot be built here. */
    static EchoBench.Peer build(Path dir) throws IOException, InterruptedException {
        Path binary = NativeBuild.gcc("wsfloor", "The floor (C echo server)", dir, "-O3");
        return binary == null ? null : EchoBench.nativePeer(NAME, List.of(binary.toString()));
    }
}
