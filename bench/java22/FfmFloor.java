import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Arrays;
import wsjava.bench.FloorConnection;

/**
 * The floor ({@code bench/c/wsfloor.c}) in Java with a transport of its own: libc's epoll,
 * accept4, recv and send on raw descriptors through FFM downcalls (JDK 22+), level-triggered like
 * wsfloor.c, one confined arena, the read buffer and the epoll structures allocated once, and a
 * connection found by its descriptor in an array (no selector, keys, locks or map). The framing is
 * {@link FloorConnection}'s, as in NioFloor, so the two differ only in transport. Linux on x86-64
 * or AArch64. Compiled and started by the echo bench (FfmFloorPeer) with the newest JDK it finds:
 *
 *   java --enable-native-access=ALL-UNNAMED -cp DIR:wsjava-bench.jar FfmFloor PORT
 */
public final class FfmFloor {

    // Linux's values, the same on x86-64 and AArch64.
    private static final int SOCK_NONBLOCK = FloorMain.SOCK_NONBLOCK, SOCK_CLOEXEC = FloorMain.SOCK_CLOEXEC;
    private static final int EPOLL_CTL_ADD = 1, EPOLL_CTL_MOD = 3, EPOLLIN = 1, EPOLLOUT = 4, EPOLLERR = 8, EPOLLHUP = 0x10;
    private static final int MSG_NOSIGNAL = 0x4000, EAGAIN = 11, EINTR = 4, MAX_EVENTS = 512;
    /** struct epoll_event is packed on x86-64 (12 bytes), naturally aligned elsewhere (16). */
    private static final boolean PACKED = System.getProperty("os.arch").equals("amd64");
    private static final int EVENT_SIZE = PACKED ? 12 : 16, DATA_AT = PACKED ? 4 : 8;

    private static final MemoryLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;     // size_t, ssize_t, and buffer addresses
    private static final ValueLayout ADDRESS = ValueLayout.ADDRESS;

    private static final MethodHandle ACCEPT4 = call("accept4", FunctionDescriptor.of(INT, INT, ADDRESS, ADDRESS, INT));
    private static final MethodHandle CLOSE = call("close", FunctionDescriptor.of(INT, INT));
    private static final MethodHandle EPOLL_CREATE1 = call("epoll_create1", FunctionDescriptor.of(INT, INT));
    private static final MethodHandle EPOLL_CTL = call("epoll_ctl", FunctionDescriptor.of(INT, INT, INT, INT, ADDRESS));
    private static final MethodHandle EPOLL_WAIT = call("epoll_wait", FunctionDescriptor.of(INT, INT, ADDRESS, INT, INT));
    // On a non-blocking socket these return at once: critical (no thread-state change), errno captured.
    private static final MethodHandle RECV = call("recv", FunctionDescriptor.of(LONG, INT, LONG, LONG, INT),
            Linker.Option.critical(false), Linker.Option.captureCallState("errno"));
    private static final MethodHandle SEND = call("send", FunctionDescriptor.of(LONG, INT, LONG, LONG, INT),
            Linker.Option.critical(false), Linker.Option.captureCallState("errno"));

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment buffer = arena.allocate(FloorConnection.BUFFER, 8);
    private final long base = buffer.address();
    private final ByteBuffer view = FloorConnection.buffer(buffer.asByteBuffer());
    private final MemorySegment events = arena.allocate((long) EVENT_SIZE * MAX_EVENTS, 8);
    private final MemorySegment event = arena.allocate(16, 8);
    private final MemorySegment callState = arena.allocate(CALL_STATE);
    private final MemorySegment one = FloorMain.on(arena);
    private FloorConnection[] connections = new FloorConnection[1024];        // by descriptor
    private final int listener;
    private final int ep;

    private static MethodHandle call(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        return FloorMain.call(name, descriptor, options);
    }

    private FfmFloor(int port) throws Throwable {
        listener = FloorMain.listen(arena, port, SOCK_NONBLOCK | SOCK_CLOEXEC);
        ep = (int) EPOLL_CREATE1.invokeExact(SOCK_CLOEXEC);    // EPOLL_CLOEXEC is O_CLOEXEC, as SOCK_CLOEXEC
        control(EPOLL_CTL_ADD, listener, EPOLLIN);
    }

    public static void main(String[] args) throws Throwable {
        FloorMain.main("FfmFloor", args, port -> new FfmFloor(port)::events);
    }

    /** One epoll_wait and its events. */
    private void events() throws Throwable {
        int n = (int) EPOLL_WAIT.invokeExact(ep, events, MAX_EVENTS, -1);
        for (int e = 0; e < n; e++) {
            int fd = events.get(ValueLayout.JAVA_INT_UNALIGNED, (long) e * EVENT_SIZE + DATA_AT);
            int ready = events.get(ValueLayout.JAVA_INT_UNALIGNED, (long) e * EVENT_SIZE);
            if (fd == listener) {
                acceptAll();
                continue;
            }
            FloorConnection c = connections[fd];
            if (c == null) {
                continue;                       // closed earlier in this batch
            }
            boolean gone;
            try {
                if (c.pending() != null) {
                    gone = (ready & (EPOLLOUT | EPOLLERR | EPOLLHUP)) != 0 && flush(fd, c);
                } else {
                    gone = (ready & (EPOLLIN | EPOLLERR | EPOLLHUP)) != 0 && (c.upgrading() ? upgrade(fd, c) : echo(fd, c));
                }
            } catch (Throwable t) {         // a bug: this connection ends, the loop goes on
                gone = true;
            }
            if (gone) {
                connections[fd] = null;
                int ignored = (int) CLOSE.invokeExact(fd);
            }
        }
    }

    private void acceptAll() throws Throwable {
        for (;;) {
            int fd = (int) ACCEPT4.invokeExact(listener, MemorySegment.NULL, MemorySegment.NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                return;                         // EAGAIN, or out of descriptors: try at the next event
            }
            FloorMain.noDelay(fd, one);
            if (fd >= connections.length) {
                connections = Arrays.copyOf(connections, Math.max(fd + 1, connections.length * 2));
            }
            connections[fd] = new FloorConnection();
            if (control(EPOLL_CTL_ADD, fd, EPOLLIN) < 0) {
                connections[fd] = null;
                int ignored = (int) CLOSE.invokeExact(fd);
            }
        }
    }

    private int control(int op, int fd, int interest) throws Throwable {
        event.set(INT, 0, interest);
        event.set(ValueLayout.JAVA_INT_UNALIGNED, DATA_AT, fd);
        return (int) EPOLL_CTL.invokeExact(ep, op, fd, event);
    }

    /** recv into the buffer from {@code at}; -1 for the end or an error, 0 for "nothing now". */
    private int receive(int fd, int at, int max) throws Throwable {
        long n = (long) RECV.invokeExact(callState, fd, base + at, (long) max, 0);
        if (n == 0) {
            return -1;
        }
        return n > 0 ? (int) n : retry() ? 0 : -1;
    }

    private boolean retry() {
        int errno = (int) ERRNO.get(callState, 0L);
        return errno == EAGAIN || errno == EINTR;
    }

    /** One readable event on an open connection: one recv, the frames reframed, one send. True when the connection is done. */
    private boolean echo(int fd, FloorConnection c) throws Throwable {
        int carried = c.restoreCarry(view);
        int n = receive(fd, carried, FloorConnection.BUFFER - carried);
        if (n <= 0) {
            return n < 0;
        }
        int len = c.reframe(view, carried + n);
        if (len < 0 || (len > 0 && !output(fd, c, base + c.outStart(), len))) {
            return true;
        }
        return c.closed() && c.pending() == null;
    }

    /** Reads the request head; on its end answers 101 and echoes any frames that came after it. */
    private boolean upgrade(int fd, FloorConnection c) throws Throwable {
        int n = receive(fd, 0, c.headRoom());
        if (n <= 0) {
            return n < 0;
        }
        byte[] answer = c.upgrade(view, n);
        if (answer == null) {
            return c.headRoom() == 0;
        }
        // The answer goes through the buffer's far end, which a request's leftover (under 8 KiB) never reaches.
        int at = FloorConnection.BUFFER - answer.length;
        MemorySegment.copy(answer, 0, buffer, ValueLayout.JAVA_BYTE, at, answer.length);
        if (!output(fd, c, base + at, answer.length) || answer == FloorConnection.REFUSED) {
            return true;
        }
        int after = c.leftover();
        if (after == 0) {
            return false;
        }
        int framed = c.reframe(view, after);
        if (framed < 0 || (framed > 0 && !output(fd, c, base + c.outStart(), framed))) {
            return true;
        }
        return c.closed() && c.pending() == null;
    }

    /** Sends what the socket takes of the {@code len} bytes at {@code address}; keeps the rest and waits for EPOLLOUT. False if the connection is gone. */
    private boolean output(int fd, FloorConnection c, long address, int len) throws Throwable {
        if (c.pending() == null) {
            while (len > 0) {
                long w = (long) SEND.invokeExact(callState, fd, address, (long) len, MSG_NOSIGNAL);
                if (w < 0) {
                    if (retry()) {
                        break;
                    }
                    return false;
                }
                address += w;
                len -= (int) w;
            }
            if (len == 0) {
                return true;
            }
        }
        c.keep(view, (int) (address - base), len);
        control(EPOLL_CTL_MOD, fd, EPOLLOUT);
        return true;
    }

    /** Sends kept output; once all is out, reads again (or is done after an echoed close). */
    private boolean flush(int fd, FloorConnection c) throws Throwable {
        ByteBuffer pending = c.pending();
        while (pending.hasRemaining()) {
            long from = MemorySegment.ofBuffer(pending).address();       // the segment starts at the buffer's position
            long w = (long) SEND.invokeExact(callState, fd, from, (long) pending.remaining(), MSG_NOSIGNAL);
            if (w < 0) {
                return !retry();
            }
            pending.position(pending.position() + (int) w);
        }
        c.sent();
        return c.closed() || control(EPOLL_CTL_MOD, fd, EPOLLIN) < 0;
    }
}
