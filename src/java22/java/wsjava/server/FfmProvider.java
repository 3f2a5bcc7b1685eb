package wsjava.server;

import java.io.IOException;

/**
 * The FFM transport ({@link IoTransport#FFM}): epoll loops and raw descriptors. Made by name from
 * {@link TransportProvider#choose}; it throws when this platform cannot run it, which that turns
 * into one log line and NIO.
 */
final class FfmProvider implements TransportProvider {

    /** {@code auto}: chosen by default, so only where native access is granted (no JDK warning on stderr). */
    FfmProvider(boolean auto) {
        if (auto && !FfmProvider.class.getModule().isNativeAccessEnabled()) {
            throw new UnsupportedOperationException("native access is not enabled; --enable-native-access=ALL-UNNAMED"
                    + " (or the module io.wsjava) grants it");
        }
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        if (!os.equals("Linux") || !(arch.equals("amd64") || arch.equals("aarch64"))) {
            throw new UnsupportedOperationException("it runs on Linux on x86-64 or AArch64, this is " + os + " on " + arch);
        }
        Libc.describe(0);       // links the C library's calls now: a failure here is a failed setup, not a failed server
    }

    @Override
    public String name() {
        return "ffm";
    }

    @Override
    public ListeningSocket listen(String host, int port, int backlog) throws IOException {
        return new FfmListener(host, port, backlog);
    }

    @Override
    public IoLoop loop(WebSocketServer server, ServerLifecycle lifecycle, int index) throws IOException {
        return new EpollLoop(server, lifecycle, index);
    }
}
