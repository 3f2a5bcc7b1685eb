package wsjava.server;

/**
 * How a server's sockets reach the kernel ({@link ServerConfig#transport(IoTransport)}).
 * Whichever it runs on, {@link WebSocketServer#transport()} tells.
 */
public enum IoTransport {
    /**
     * FFM where it can run (JDK 22 or later on Linux, x86-64 or AArch64), NIO elsewhere. The
     * default, unless the system property {@code wsjava.transport} names another.
     */
    AUTO,
    /** The JDK's selectors and socket channels: every platform, Java 11 and later. */
    NIO,
    /**
     * epoll and reads and writes on raw descriptors through the JDK's foreign function API, without
     * NIO's locks and selection keys. Needs JDK 22 or later on Linux; where it cannot start, the
     * server says so in one log line and runs on NIO. Give the JVM
     * {@code --enable-native-access=ALL-UNNAMED} (or the module's name) to spare it the JDK's warning.
     */
    FFM;

    /** The choice to make for {@link #AUTO}: the system property {@code wsjava.transport} when set (auto, nio or ffm). */
    static IoTransport fromProperty() {
        String named = System.getProperty("wsjava.transport", "auto");
        try {
            return valueOf(named.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("wsjava.transport must be auto, nio or ffm, was " + named, e);
        }
    }
}
