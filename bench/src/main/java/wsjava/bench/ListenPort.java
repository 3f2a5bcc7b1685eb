package wsjava.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A port for a server the bench starts in another process, chosen below the kernel's ephemeral
 * range. A port from {@code bind(0)} comes from that range, so until the server binds it, any
 * outgoing connection on the machine may take it as its own local port: an attack that opens
 * thousands of sockets, or a load client, did (a server that "did not start", a peer that
 * "exited", in loaded CI runs). Below the range only a process that binds that very port can.
 */
public final class ListenPort {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** The lowest port tried: above the registered services most machines run. */
    private static final int LOWEST = 10_000;
    private static final int ATTEMPTS = 200;

    private ListenPort() {
    }

    /** A port that nothing listens on now, outside the ephemeral range when the kernel says where that is. */
    public static int free() throws IOException {
        int below = ephemeralStart();
        if (below - LOWEST >= 1_000) {
            for (int i = 0; i < ATTEMPTS; i++) {
                int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
                if (bindable(port)) {
                    return port;
                }
            }
        }
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();      // no room below the range, or none free there: the kernel's pick
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);      // as the servers bind: a TIME_WAIT from an earlier run does not block them
            s.bind(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The first ephemeral port (32768 on Linux by default); LOWEST when it cannot be read. */
    static int ephemeralStart() {
        try {
            String[] range;
            try (BufferedReader in = Files.newBufferedReader(EPHEMERAL_RANGE)) {     // readString reads a /proc file short here
                range = in.readLine().trim().split("\\s+");
            }
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException e) {
            return LOWEST;
        }
    }
}
