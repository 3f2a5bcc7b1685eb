package wsjava.server;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The C library's socket, epoll and eventfd calls, as FFM downcalls; Linux's constants, the same on
 * x86-64 and AArch64. Calls that return at once on a non-blocking descriptor are critical (no
 * thread-state change) and may take heap memory; each captures errno in a {@link Errno}.
 */
final class Libc {

    static final int AF_INET = 2, AF_INET6 = 10, SOCK_STREAM = 1, SOCK_NONBLOCK = 04000, SOCK_CLOEXEC = 02000000;
    static final int SOL_SOCKET = 1, SO_REUSEADDR = 2, SO_SNDBUF = 7, IPPROTO_TCP = 6, TCP_NODELAY = 1, SHUT_WR = 1;
    static final int IPPROTO_IPV6 = 41, IPV6_V6ONLY = 26;
    static final int EPOLL_CTL_ADD = 1, EPOLL_CTL_DEL = 2, EPOLL_CTL_MOD = 3;
    static final int EPOLLIN = 1, EPOLLOUT = 4, EPOLLERR = 8, EPOLLHUP = 0x10;
    static final int MSG_NOSIGNAL = 0x4000, EAGAIN = 11, EINTR = 4, ECONNABORTED = 103;
    static final int EFD_NONBLOCK = 04000, EFD_CLOEXEC = 02000000;

    private static final Linker LINKER = Linker.nativeLinker();
    static final MemoryLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ValueLayout INT = ValueLayout.JAVA_INT, LONG = ValueLayout.JAVA_LONG, ADDRESS = ValueLayout.ADDRESS;
    private static final Linker.Option ERRNO_OF = Linker.Option.captureCallState("errno");
    private static final Linker.Option QUICK = Linker.Option.critical(true);

    static final MethodHandle SOCKET = call("socket", FunctionDescriptor.of(INT, INT, INT, INT), ERRNO_OF);
    static final MethodHandle SETSOCKOPT = call("setsockopt", FunctionDescriptor.of(INT, INT, INT, INT, ADDRESS, INT), ERRNO_OF);
    static final MethodHandle BIND = call("bind", FunctionDescriptor.of(INT, INT, ADDRESS, INT), ERRNO_OF);
    static final MethodHandle LISTEN = call("listen", FunctionDescriptor.of(INT, INT, INT), ERRNO_OF);
    static final MethodHandle GETSOCKNAME = call("getsockname", FunctionDescriptor.of(INT, INT, ADDRESS, ADDRESS), ERRNO_OF);
    static final MethodHandle ACCEPT4 = call("accept4", FunctionDescriptor.of(INT, INT, ADDRESS, ADDRESS, INT), QUICK, ERRNO_OF);
    static final MethodHandle CLOSE = call("close", FunctionDescriptor.of(INT, INT));
    static final MethodHandle SHUTDOWN = call("shutdown", FunctionDescriptor.of(INT, INT, INT), ERRNO_OF);
    static final MethodHandle EPOLL_CREATE1 = call("epoll_create1", FunctionDescriptor.of(INT, INT), ERRNO_OF);
    static final MethodHandle EPOLL_CTL = call("epoll_ctl", FunctionDescriptor.of(INT, INT, INT, INT, ADDRESS), QUICK, ERRNO_OF);
    /** Blocks: not critical, so the garbage collector may run while the loop waits. */
    static final MethodHandle EPOLL_WAIT = call("epoll_wait", FunctionDescriptor.of(INT, INT, ADDRESS, INT, INT), ERRNO_OF);
    static final MethodHandle EVENTFD = call("eventfd", FunctionDescriptor.of(INT, INT, INT), ERRNO_OF);
    static final MethodHandle READ = call("read", FunctionDescriptor.of(LONG, INT, ADDRESS, LONG), QUICK, ERRNO_OF);
    /** An eventfd's wake-up, from any thread: nothing to learn from its errno (a full counter wakes the loop as well). */
    static final MethodHandle WAKE = call("write", FunctionDescriptor.of(LONG, INT, ADDRESS, LONG), QUICK);
    static final MethodHandle RECV = call("recv", FunctionDescriptor.of(LONG, INT, ADDRESS, LONG, INT), QUICK, ERRNO_OF);
    static final MethodHandle SEND = call("send", FunctionDescriptor.of(LONG, INT, ADDRESS, LONG, INT), QUICK, ERRNO_OF);
    static final MethodHandle SENDMSG = call("sendmsg", FunctionDescriptor.of(LONG, INT, ADDRESS, INT), QUICK, ERRNO_OF);
    /*
     * The same per-message calls without errno, tried first (SocketCalls). The _AT forms take the
     * loop's own direct buffers by address, as a long, which both ABIs pass as they pass a pointer:
     * no segment is made.
     */
    static final MethodHandle RECV_NOW = call("recv", FunctionDescriptor.of(LONG, INT, ADDRESS, LONG, INT), QUICK);
    static final MethodHandle SEND_NOW = call("send", FunctionDescriptor.of(LONG, INT, ADDRESS, LONG, INT), QUICK);
    static final MethodHandle RECV_AT = call("recv", FunctionDescriptor.of(LONG, INT, LONG, LONG, INT), QUICK);
    static final MethodHandle SEND_AT = call("send", FunctionDescriptor.of(LONG, INT, LONG, LONG, INT), QUICK);
    static final MethodHandle SENDMSG_NOW = call("sendmsg", FunctionDescriptor.of(LONG, INT, ADDRESS, INT), QUICK);
    static final MethodHandle GETSOCKOPT = call("getsockopt", FunctionDescriptor.of(INT, INT, INT, INT, ADDRESS, ADDRESS), QUICK, ERRNO_OF);
    private static final MethodHandle STRERROR = call("strerror", FunctionDescriptor.of(ADDRESS, INT));

    private Libc() {
    }

    private static MethodHandle call(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment symbol = LINKER.defaultLookup().find(name).orElseThrow(() -> new UnsatisfiedLinkError("no " + name + " in the C library"));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /** Where one thread's calls leave errno: each loop has its own. */
    static final class Errno {
        final MemorySegment state;

        Errno(Arena arena) {
            state = arena.allocate(CALL_STATE);
        }

        int value() {
            return (int) ERRNO.get(state, 0L);
        }

        /** Nothing now: try again when ready (EAGAIN, EINTR). */
        boolean retry() {
            int errno = value();
            return errno == EAGAIN || errno == EINTR;
        }

        /** The last call's failure, as the system says it. */
        IOException failure(String what) {
            return new IOException(what + ": " + describe(value()));
        }
    }

    static String describe(int errno) {
        try {
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            return text.reinterpret(256).getString(0);
        } catch (Throwable e) {
            return "errno " + errno;
        }
    }

    static void close(int fd) {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable e) {
            throw new IllegalStateException(e);      // a downcall that cannot be made: a bug, not I/O
        }
    }
}
