package wsjava.server;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The listening socket on a raw descriptor: socket, bind and listen as NIO does them (SO_REUSEADDR,
 * the given backlog), then accept4 on the first loop's thread, each accepted socket non-blocking,
 * with TCP_NODELAY, and its peer's address read from what accept4 filled in (no second call).
 */
final class FfmListener implements ListeningSocket {

    private final Arena arena = Arena.ofAuto();      // freed with the listener: its loop may still be in accept4 as it closes
    private final int fd;
    private final int port;
    /** accept4's address and its length, and setsockopt's "on": used on the accepting loop's thread only. */
    private final MemorySegment peer = arena.allocate(SocketAddresses.SIZE, 8);
    private final MemorySegment peerLength = arena.allocate(ValueLayout.JAVA_INT);
    private final MemorySegment on = arena.allocate(ValueLayout.JAVA_INT);
    private EpollLoop loop;
    private volatile boolean closed;

    FfmListener(String host, int port, int backlog) throws IOException {
        on.set(ValueLayout.JAVA_INT, 0, 1);
        Libc.Errno errno = new Libc.Errno(arena);
        MemorySegment address = arena.allocate(SocketAddresses.SIZE, 8);
        int fd = -1;
        try {
            // The any-address as NIO binds it: [::] taking IPv4 too, where the system has IPv6.
            long written = SocketAddresses.write(host, port, address, true);
            fd = open(SocketAddresses.family(written), errno);
            if (fd < 0 && SocketAddresses.dualStack(written)) {
                written = SocketAddresses.write(host, port, address, false);
                fd = open(SocketAddresses.family(written), errno);
            }
            if (fd < 0) {
                throw errno.failure("socket");
            }
            if (SocketAddresses.dualStack(written)) {
                MemorySegment off = arena.allocate(ValueLayout.JAVA_INT);     // zeroed
                int v6only = (int) Libc.SETSOCKOPT.invokeExact(errno.state, fd, Libc.IPPROTO_IPV6, Libc.IPV6_V6ONLY, off, 4);
            }
            int ignored = (int) Libc.SETSOCKOPT.invokeExact(errno.state, fd, Libc.SOL_SOCKET, Libc.SO_REUSEADDR, on, 4);
            if ((int) Libc.BIND.invokeExact(errno.state, fd, address, (int) written) < 0) {
                throw new java.net.BindException("cannot bind " + host + ":" + port + ": " + Libc.describe(errno.value()));
            }
            if ((int) Libc.LISTEN.invokeExact(errno.state, fd, backlog) < 0) {
                throw errno.failure("listen");
            }
            peerLength.set(ValueLayout.JAVA_INT, 0, SocketAddresses.SIZE);
            if ((int) Libc.GETSOCKNAME.invokeExact(errno.state, fd, address, peerLength) < 0) {
                throw errno.failure("getsockname");
            }
        } catch (IOException | RuntimeException | Error e) {
            if (fd >= 0) {
                Libc.close(fd);
            }
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);       // invokeExact declares Throwable; the calls throw nothing else
        }
        this.fd = fd;
        this.port = SocketAddresses.port(address);
    }

    private static int open(int family, Libc.Errno errno) throws Throwable {
        return (int) Libc.SOCKET.invokeExact(errno.state, family, Libc.SOCK_STREAM | Libc.SOCK_NONBLOCK | Libc.SOCK_CLOEXEC, 0);
    }

    int fd() {
        return fd;
    }

    /** The loop that watches it (the first one). */
    void watchedBy(EpollLoop watching) {
        loop = watching;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public ConnectionSocket accept() throws IOException {
        Libc.Errno errno = loop.errno();
        for (;;) {
            if (closed) {
                return null;
            }
            peerLength.set(ValueLayout.JAVA_INT, 0, SocketAddresses.SIZE);
            int accepted;
            try {
                accepted = (int) Libc.ACCEPT4.invokeExact(errno.state, fd, peer, peerLength, Libc.SOCK_NONBLOCK | Libc.SOCK_CLOEXEC);
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
            if (accepted >= 0) {
                noDelay(accepted, errno);
                return new FfmSocket(accepted, SocketAddresses.text(peer), loop);
            }
            int why = errno.value();
            if (why == Libc.EAGAIN) {
                return null;
            }
            if (why != Libc.EINTR && why != Libc.ECONNABORTED) {      // those two: take the next one
                throw errno.failure("accept");
            }
        }
    }

    private void noDelay(int socket, Libc.Errno errno) {
        try {
            int ignored = (int) Libc.SETSOCKOPT.invokeExact(errno.state, socket, Libc.IPPROTO_TCP, Libc.TCP_NODELAY, on, 4);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Never for a closed listener: its number may be another descriptor's by now (NIO's key is invalid then). */
    @Override
    public synchronized void watchAccepts(boolean on) {
        if (!closed && !loop.watchListener(on) && on) {
            ServerLog.log(System.Logger.Level.ERROR, "accepting could not resume: " + Libc.describe(loop.errno().value())
                    + "; no new connections are taken", null);
        }
    }

    /**
     * Closed on its loop's thread, so that no accept4 is under way on the number as it is freed (the
     * server's stop calls this from another thread; the loop's end closes it too, if that comes first).
     */
    @Override
    public void close() {
        EpollLoop watching = loop;
        if (watching != null && !watching.inLoop()) {
            watching.executeLater(this::closeNow);
        } else {
            closeNow();
        }
    }

    synchronized void closeNow() {
        if (!closed) {
            closed = true;
            Libc.close(fd);        // epoll forgets a descriptor once it is closed
        }
    }
}
