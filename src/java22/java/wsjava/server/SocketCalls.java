package wsjava.server;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * One loop's recv, send and sendmsg, the calls made per message. Each is made first without
 * capturing errno: the JDK's capture allocates and copies on every call, which cost 3% of the
 * server's CPU per 64 B echo. A call that fails is made once more with errno captured, to learn why.
 * That second call answers for the first: a socket that was not ready (EAGAIN) is still not ready,
 * or is ready now; a failed socket fails again (a send gets EPIPE once the first took the reset).
 * An end of stream while our side is still open is told from a reset by the TCP state, whoever took
 * the reset's errno. The loop's own read and frame buffers go by their address; any other buffer
 * goes as a segment, so a closed arena's memory is refused, not read. Used on the loop's thread only.
 */
final class SocketCalls {

    private static final int TCP_INFO = 11, TCP_CLOSE_WAIT = 8;

    private final Arena arena = Arena.ofAuto();
    private final Libc.Errno errno = new Libc.Errno(arena);
    private final GatherSend gather = new GatherSend();
    /** The loop's own buffers (allocated direct, alive as long as the loop): passed by address. */
    private final OwnBuffer readInto, sendFrom;
    private final MemorySegment tcpState = arena.allocate(8, 8);
    private final MemorySegment tcpStateLength = arena.allocate(ValueLayout.JAVA_INT);

    SocketCalls(LoopBuffers buffers) {
        readInto = new OwnBuffer(buffers.read);
        sendFrom = new OwnBuffer(buffers.smallFrame);
    }

    Libc.Errno errno() {
        return errno;
    }

    /**
     * Reads into {@code dst} and moves it on: the bytes read, 0 when none are there yet, -1 at the end
     * of the stream. {@code outputShut}: we sent our FIN, so an end of stream is the peer's answer.
     */
    int recv(int fd, ByteBuffer dst, boolean outputShut) throws IOException {
        long length = dst.remaining();
        long n;
        try {
            n = dst == readInto.buffer ? (long) Libc.RECV_AT.invokeExact(fd, readInto.address(), length, 0)
                    : (long) Libc.RECV_NOW.invokeExact(fd, MemorySegment.ofBuffer(dst), length, 0);
            if (n < 0) {
                n = (long) Libc.RECV.invokeExact(errno.state, fd, MemorySegment.ofBuffer(dst), length, 0);
            }
            if (n == 0 && !outputShut && !peerSentFin(fd)) {
                throw new IOException("recv: connection reset or timed out");
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);      // invokeExact declares Throwable; the C calls throw nothing
        }
        if (n > 0) {
            dst.position(dst.position() + (int) n);
            return (int) n;
        }
        return n == 0 ? -1 : nothingNowOrFailure("recv");
    }

    /** Sends from {@code src} and moves it on: the bytes sent, 0 when the socket is full. */
    int send(int fd, ByteBuffer src) throws IOException {
        long length = src.remaining();
        long n;
        try {
            n = src == sendFrom.buffer ? (long) Libc.SEND_AT.invokeExact(fd, sendFrom.address(), length, Libc.MSG_NOSIGNAL)
                    : (long) Libc.SEND_NOW.invokeExact(fd, MemorySegment.ofBuffer(src), length, Libc.MSG_NOSIGNAL);
            if (n < 0) {
                n = (long) Libc.SEND.invokeExact(errno.state, fd, MemorySegment.ofBuffer(src), length, Libc.MSG_NOSIGNAL);
            }
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        if (n < 0) {
            return nothingNowOrFailure("send");
        }
        src.position(src.position() + (int) n);
        return (int) n;
    }

    /** Sends {@code srcs[from..to)} (the first has bytes left) in one sendmsg, without moving them: the bytes sent, 0 when the socket is full. */
    long sendmsg(int fd, ByteBuffer[] srcs, int from, int to) throws IOException {
        gather.prepare(srcs, from, to);
        long n = gather.send(fd);
        if (n < 0) {
            n = gather.send(fd, errno);
        }
        return n < 0 ? nothingNowOrFailure("sendmsg") : n;
    }

    /** A call that moved nothing: 0 when the socket is not ready (EAGAIN, EINTR); otherwise the connection is lost. */
    private int nothingNowOrFailure(String call) throws IOException {
        if (errno.retry()) {
            return 0;
        }
        throw errno.failure(call);
    }

    /** Whether the connection's end was the peer's FIN (CLOSE_WAIT), not a reset or an error that closed it. */
    private boolean peerSentFin(int fd) throws Throwable {
        tcpStateLength.set(ValueLayout.JAVA_INT, 0, 1);       // tcp_info's first byte is the state
        int result = (int) Libc.GETSOCKOPT.invokeExact(errno.state, fd, Libc.IPPROTO_TCP, TCP_INFO, tcpState, tcpStateLength);
        return result == 0 && tcpState.get(ValueLayout.JAVA_BYTE, 0) == TCP_CLOSE_WAIT;
    }

    /** One of the loop's direct buffers and its native address, found once. */
    private static final class OwnBuffer {
        final ByteBuffer buffer;
        private final long base;

        OwnBuffer(ByteBuffer direct) {
            buffer = direct;
            base = MemorySegment.ofBuffer(direct.duplicate().clear()).address();
        }

        /** The address of the buffer's position. */
        long address() {
            return base + buffer.position();
        }
    }
}
