package wsjava.server;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An I/O thread on epoll through FFM: level-triggered like NIO's selector, its connections found by
 * descriptor in an array (no keys, no map, no lock), woken by an eventfd. A socket with no interest
 * leaves the epoll set, as NIO's does, so a hung-up socket nobody reads reports nothing.
 */
final class EpollLoop extends IoLoop {

    private static final int MAX_EVENTS = 512;
    /** struct epoll_event is packed on x86-64 (12 bytes), naturally aligned elsewhere (16). */
    private static final boolean PACKED = System.getProperty("os.arch").equals("amd64");
    private static final int EVENT_SIZE = PACKED ? 12 : 16, DATA_AT = PACKED ? 4 : 8;
    /** epoll's data for what is not a connection: a tag above the descriptor. */
    private static final long LISTENER = 1L << 32, WAKEUP = 2L << 32;

    private final Arena arena = Arena.ofAuto();
    private final SocketCalls calls = new SocketCalls(buffers());
    private final Libc.Errno errno = calls.errno();
    private final MemorySegment events = arena.allocate((long) EVENT_SIZE * MAX_EVENTS, 8);
    private final MemorySegment event = arena.allocate(16, 8);
    /** What a wake-up writes (1, read-only) and where the loop reads the count back. */
    private final MemorySegment one = arena.allocate(ValueLayout.JAVA_LONG);
    private final MemorySegment drained = arena.allocate(ValueLayout.JAVA_LONG);
    private final int epoll;
    private final int wakeFd;
    private final AtomicBoolean woken = new AtomicBoolean();
    /** Held while writing to the eventfd and while closing it: a wake-up after the loop ended must not reach a reused number. */
    private final Object wakeLock = new Object();
    private boolean released;
    private ServerConnection[] byDescriptor = new ServerConnection[1024];
    private FfmListener listener;

    EpollLoop(WebSocketServer server, ServerLifecycle lifecycle, int index) throws IOException {
        super(server, lifecycle, index);
        try {
            epoll = (int) Libc.EPOLL_CREATE1.invokeExact(errno.state, Libc.SOCK_CLOEXEC);       // EPOLL_CLOEXEC is O_CLOEXEC
            if (epoll < 0) {
                throw errno.failure("epoll_create1");
            }
            wakeFd = (int) Libc.EVENTFD.invokeExact(errno.state, 0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
            if (wakeFd < 0) {
                Libc.close(epoll);
                throw errno.failure("eventfd");
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        one.set(ValueLayout.JAVA_LONG, 0, 1);
        if (control(Libc.EPOLL_CTL_ADD, wakeFd, Libc.EPOLLIN, WAKEUP | wakeFd) < 0) {
            IOException failed = errno.failure("epoll_ctl");
            Libc.close(wakeFd);
            Libc.close(epoll);
            throw failed;
        }
    }

    Libc.Errno errno() {
        return errno;
    }

    SocketCalls calls() {
        return calls;
    }

    @Override
    void wakeup() {
        if (woken.compareAndSet(false, true)) {       // at most one waker per pass gets here: the lock costs nothing
            synchronized (wakeLock) {
                if (!released) {
                    try {
                        long ignored = (long) Libc.WAKE.invokeExact(wakeFd, one, 8L);
                    } catch (Throwable e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
    }

    @Override
    void watchListener() throws IOException {
        listener = (FfmListener) acceptor.listening();
        listener.watchedBy(this);
        if (control(Libc.EPOLL_CTL_ADD, listener.fd(), Libc.EPOLLIN, LISTENER | listener.fd()) < 0) {
            throw errno.failure("epoll_ctl");
        }
    }

    /** Accepting paused or resumed; false when epoll refused. */
    boolean watchListener(boolean on) {
        return control(on ? Libc.EPOLL_CTL_ADD : Libc.EPOLL_CTL_DEL, listener.fd(), Libc.EPOLLIN, LISTENER | listener.fd()) >= 0;
    }

    @Override
    boolean watch(ServerConnection connection) {
        FfmSocket socket = (FfmSocket) connection.socket;
        int fd = socket.fd();
        if (fd >= byDescriptor.length) {
            byDescriptor = Arrays.copyOf(byDescriptor, Math.max(fd + 1, byDescriptor.length * 2));
        }
        socket.watchedBy(this);
        byDescriptor[fd] = connection;
        socket.watchReads(true);
        return socket.events() != 0;
    }

    /** {@code socket}'s interest went from {@code was} to {@code now}: in or out of the epoll set, or changed there. */
    void changeEvents(FfmSocket socket, int was, int now) {
        int op = now == 0 ? Libc.EPOLL_CTL_DEL : was == 0 ? Libc.EPOLL_CTL_ADD : Libc.EPOLL_CTL_MOD;
        if (control(op, socket.fd(), now, socket.fd()) < 0 && now != 0) {
            ServerConnection connection = byDescriptor[socket.fd()];
            if (connection != null) {
                connection.lost("the socket could not be watched: " + Libc.describe(errno.value()), null);
            }
        }
    }

    /** The socket is about to close: out of the epoll set and the table. */
    void forget(FfmSocket socket) {
        int fd = socket.fd();
        if (socket.events() != 0) {
            control(Libc.EPOLL_CTL_DEL, fd, 0, fd);
        }
        if (fd < byDescriptor.length && byDescriptor[fd] != null && byDescriptor[fd].socket == socket) {
            byDescriptor[fd] = null;
        }
    }

    private int control(int op, int fd, int interest, long data) {
        event.set(ValueLayout.JAVA_INT, 0, interest);
        event.set(ValueLayout.JAVA_LONG_UNALIGNED, DATA_AT, data);
        try {
            return (int) Libc.EPOLL_CTL.invokeExact(errno.state, epoll, op, fd, event);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    List<ServerConnection> connections(List<ServerConnection> into) {
        for (ServerConnection connection : byDescriptor) {
            if (connection != null) {
                into.add(connection);
            }
        }
        return into;
    }

    @Override
    void poll(long timeoutMillis) throws IOException {
        int n;
        try {
            n = (int) Libc.EPOLL_WAIT.invokeExact(errno.state, epoll, events, MAX_EVENTS, (int) timeoutMillis);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        if (n < 0) {
            if (errno.value() == Libc.EINTR) {
                return;
            }
            throw errno.failure("epoll_wait");
        }
        for (int i = 0; i < n; i++) {
            int ready = events.get(ValueLayout.JAVA_INT_UNALIGNED, (long) i * EVENT_SIZE);
            long data = events.get(ValueLayout.JAVA_LONG_UNALIGNED, (long) i * EVENT_SIZE + DATA_AT);
            if ((data & ~0xFFFF_FFFFL) == LISTENER) {
                readyListener();
            } else if ((data & ~0xFFFF_FFFFL) == WAKEUP) {
                try {
                    long ignored = (long) Libc.READ.invokeExact(errno.state, wakeFd, drained, 8L);
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
                // After the read, never before: a wake-up between the two would be read away with
                // woken left true, and no later one would write. One whose CAS fails now added its
                // task before, and this pass runs the tasks next.
                woken.set(false);
            } else {
                dispatch((int) data, ready);
            }
        }
    }

    private void dispatch(int fd, int ready) {
        ServerConnection connection = fd < byDescriptor.length ? byDescriptor[fd] : null;
        if (connection == null) {
            return;         // closed earlier in this batch
        }
        int asked = ((FfmSocket) connection.socket).events();
        boolean failed = (ready & (Libc.EPOLLERR | Libc.EPOLLHUP)) != 0;     // reported to whatever is asked, as NIO does
        ready(connection, (asked & Libc.EPOLLIN) != 0 && (failed || (ready & Libc.EPOLLIN) != 0),
                (asked & Libc.EPOLLOUT) != 0 && (failed || (ready & Libc.EPOLLOUT) != 0));
    }

    @Override
    void release() {
        if (listener != null) {
            listener.closeNow();        // if the server's stop left it to this loop
        }
        synchronized (wakeLock) {
            released = true;
            Libc.close(wakeFd);
        }
        Libc.close(epoll);
    }
}
