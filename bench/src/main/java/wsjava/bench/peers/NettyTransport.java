package wsjava.bench.peers;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.util.List;

/** The transport Netty's echo server runs on: NIO, or one of its native Linux ones (epoll, io_uring). */
public enum NettyTransport {
    NIO, EPOLL, IO_URING;

    /** {@code --epoll} or {@code --io_uring} among the server's arguments; NIO without either. */
    static NettyTransport of(List<String> options) {
        return options.contains("--io_uring") ? IO_URING : options.contains("--epoll") ? EPOLL : NIO;
    }

    /** Why this JVM cannot run on io_uring (the kernel, seccomp or a missing native library), or null when it can. */
    public static String ioUringUnavailable() {
        Throwable cause = IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
        return cause == null ? null : String.valueOf(cause.getMessage() == null ? cause : cause.getMessage());
    }

    /** The event loops' handlers; throws with Netty's reason when a native transport cannot run here. */
    IoHandlerFactory handlers() {
        switch (this) {
            case EPOLL:
                Epoll.ensureAvailability();
                return EpollIoHandler.newFactory();
            case IO_URING:
                IoUring.ensureAvailability();
                return IoUringIoHandler.newFactory();
            default:
                return NioIoHandler.newFactory();
        }
    }

    Class<? extends ServerChannel> serverChannel() {
        switch (this) {
            case EPOLL:
                return EpollServerSocketChannel.class;
            case IO_URING:
                return IoUringServerSocketChannel.class;
            default:
                return NioServerSocketChannel.class;
        }
    }
}
