package wsjava.server;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A connection's socket on a raw descriptor, watched by an {@link EpollLoop}: recv and send (or
 * sendmsg for several buffers) straight from the caller's buffers, heap or direct, with no lock, no
 * copy into a temporary buffer, and no selection key. The interest it keeps is epoll's event mask.
 * All but {@link #close()} run on the loop's thread.
 */
final class FfmSocket implements ConnectionSocket {

    private final int fd;
    private final String remoteAddress;
    /** Its errno and gather scratch: the accepting loop's until the owning one adopts it. */
    private EpollLoop loop;
    /** The owning loop watches it: interest may reach epoll. */
    private boolean watched;
    /** The epoll events asked for (EPOLLIN, EPOLLOUT); 0 while not in the epoll set. */
    private int events;
    private volatile boolean closed;
    /** We sent our FIN: an end of stream now is the peer's answer, whatever the TCP state says. */
    private boolean outputShut;

    /** {@code accepting}: the loop that accepted it, whose thread may refuse it before another adopts it. */
    FfmSocket(int fd, String remoteAddress, EpollLoop accepting) {
        this.fd = fd;
        this.remoteAddress = remoteAddress;
        this.loop = accepting;
    }

    int fd() {
        return fd;
    }

    void watchedBy(EpollLoop watching) {
        loop = watching;
        watched = true;
    }

    int events() {
        return events;
    }

    /**
     * A closed descriptor's number is soon another socket's: nothing may reach it through this one
     * (NIO's channel throws the same).
     */
    private void open() throws IOException {
        if (closed) {
            throw new java.nio.channels.ClosedChannelException();
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        open();
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only buffer");      // as NIO's channel: recv would write into it
        }
        return dst.hasRemaining() ? loop.calls().recv(fd, dst, outputShut) : 0;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        open();
        return src.hasRemaining() ? loop.calls().send(fd, src) : 0;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        open();
        int last = offset + length;
        while (offset < last && !srcs[offset].hasRemaining()) {
            offset++;
        }
        if (offset == last) {
            return 0;
        }
        if (offset == last - 1) {
            return write(srcs[offset]);
        }
        long n = loop.calls().sendmsg(fd, srcs, offset, last);
        long left = n;
        for (int i = offset; i < last && left > 0; i++) {
            int step = (int) Math.min(left, srcs[i].remaining());
            srcs[i].position(srcs[i].position() + step);
            left -= step;
        }
        return n;
    }

    @Override
    public void watchReads(boolean on) {
        watch(on ? events | Libc.EPOLLIN : events & ~Libc.EPOLLIN);
    }

    @Override
    public boolean watchesReads() {
        return (events & Libc.EPOLLIN) != 0;
    }

    @Override
    public void watchWrites(boolean on) {
        watch(on ? events | Libc.EPOLLOUT : events & ~Libc.EPOLLOUT);
    }

    private void watch(int wanted) {
        if (wanted != events && !closed && watched) {
            int was = events;
            events = wanted;
            loop.changeEvents(this, was, wanted);
        }
    }

    @Override
    public void unwatch() {
        if (watched) {
            loop.forget(this);
        }
        events = 0;
        watched = false;
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    @Override
    public void sendBuffer(int bytes) throws IOException {
        open();
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment value = arena.allocate(java.lang.foreign.ValueLayout.JAVA_INT);
            value.set(java.lang.foreign.ValueLayout.JAVA_INT, 0, bytes);
            Libc.Errno errno = new Libc.Errno(arena);
            if ((int) Libc.SETSOCKOPT.invokeExact(errno.state, fd, Libc.SOL_SOCKET, Libc.SO_SNDBUF, value, 4) < 0) {
                throw errno.failure("setsockopt");
            }
        } catch (IOException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void shutdownOutput() throws IOException {
        open();
        try {
            if ((int) Libc.SHUTDOWN.invokeExact(loop.errno().state, fd, Libc.SHUT_WR) < 0) {
                throw loop.errno().failure("shutdown");
            }
            outputShut = true;
        } catch (IOException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            if (watched && loop.inLoop()) {
                unwatch();      // out of the table before the number is free (closeChannel did it already)
            }
            closed = true;
            Libc.close(fd);
        }
    }

    @Override
    public String toString() {
        return "FfmSocket[" + fd + ", " + remoteAddress + "]";
    }
}
