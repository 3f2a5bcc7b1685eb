package wsjava.server;

/**
 * A connection's socket as its I/O loop holds it: the bytes as they are, and the loop's watch on
 * it (whether it reports the socket readable, writable). One per transport: {@link NioSocket} on a
 * selector, or a raw descriptor on epoll through FFM (JDK 22 and later). TLS, when configured, is a
 * {@link TlsTransport} over it.
 */
interface ConnectionSocket extends Transport {

    /** Whether the loop reports this socket readable; on the I/O thread. */
    void watchReads(boolean on);

    boolean watchesReads();

    /** Whether the loop reports this socket writable; on the I/O thread. */
    void watchWrites(boolean on);

    /** The loop stops watching: the socket is about to close. */
    void unwatch();

    /** "ip:port" of the peer, or "" when the socket no longer knows. */
    String remoteAddress();

    /** Fixes the kernel's send buffer (SO_SNDBUF) at {@code bytes}, as on a slow link, where it would autotune. */
    void sendBuffer(int bytes) throws java.io.IOException;

    /** Plain TCP: nothing is kept inside (see {@link Transport}). */
    @Override
    default boolean flushPending() {
        return true;
    }

    @Override
    default boolean hasPendingOutput() {
        return false;
    }

    @Override
    default boolean writesThrough() {
        return true;
    }

    @Override
    default boolean ready() {
        return true;
    }
}
