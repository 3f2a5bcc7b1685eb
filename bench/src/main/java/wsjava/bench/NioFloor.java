package wsjava.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * The floor ({@code bench/c/wsfloor.c}) in Java on NIO: one selector thread, non-blocking
 * channels, one direct buffer shared by all connections, and per readable event one read and one
 * write ({@link FloorConnection} does the framing). What it costs above wsfloor.c is what the JVM
 * and NIO add to an echo before any server code runs; what WSJava costs above it is WSJava's own.
 * Java 11 API only: {@code Selector.select(Consumer)}, which fills no selected-key set.
 *
 *   java -cp wsjava-bench.jar wsjava.bench.NioFloor PORT   -> prints "listening on ws://127.0.0.1:PORT/"
 */
public final class NioFloor {

    private final Selector selector;
    private final ServerSocketChannel listener;
    private final ByteBuffer buffer = FloorConnection.buffer(ByteBuffer.allocateDirect(FloorConnection.BUFFER));
    private final Consumer<SelectionKey> onReady = this::ready;

    private NioFloor(int port) throws IOException {
        selector = Selector.open();
        listener = ServerSocketChannel.open();
        listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        listener.bind(new InetSocketAddress("127.0.0.1", port), 4096);
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: NioFloor PORT");
            System.exit(2);
        }
        NioFloor floor = new NioFloor(Integer.parseInt(args[0]));
        System.out.println("listening on ws://127.0.0.1:" + args[0] + "/");
        System.out.flush();
        for (;;) {
            try {
                floor.selector.select(floor.onReady);
            } catch (Throwable e) {         // no Throwable ends the loop
                e.printStackTrace();
            }
        }
    }

    private void ready(SelectionKey key) {
        if (key.channel() == listener) {
            acceptAll();
            return;
        }
        FloorConnection c = (FloorConnection) key.attachment();
        boolean gone;
        try {
            if (c.pending() != null) {
                gone = key.isWritable() && flush(key, c);
            } else {
                gone = key.isReadable() && (c.upgrading() ? upgrade(key, c) : echo(key, c));
            }
        } catch (Throwable e) {             // a broken connection, or a bug: this connection ends, the loop goes on
            gone = true;
        }
        if (gone) {
            key.cancel();
            try {
                key.channel().close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private void acceptAll() {
        for (;;) {
            SocketChannel channel;
            try {
                channel = listener.accept();
            } catch (IOException e) {
                return;                     // out of descriptors: try at the next event
            }
            if (channel == null) {
                return;
            }
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.register(selector, SelectionKey.OP_READ, new FloorConnection());
            } catch (IOException e) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // gone already
                }
            }
        }
    }

    /** One readable event on an open connection: one read, the frames reframed, one write. Returns true when the connection is done. */
    private boolean echo(SelectionKey key, FloorConnection c) throws IOException {
        int carried = c.restoreCarry(buffer);
        buffer.limit(FloorConnection.BUFFER).position(carried);
        int n = channel(key).read(buffer);
        if (n <= 0) {
            return n < 0;
        }
        int len = c.reframe(buffer, carried + n);
        if (len < 0) {
            return true;
        }
        if (len > 0) {
            output(key, c, buffer, c.outStart(), len);
        }
        return c.closed() && c.pending() == null;
    }

    /** Reads the request head; on its end answers 101 and echoes any frames that came after it. */
    private boolean upgrade(SelectionKey key, FloorConnection c) throws IOException {
        buffer.limit(c.headRoom()).position(0);
        int n = channel(key).read(buffer);
        if (n <= 0) {
            return n < 0;
        }
        byte[] answer = c.upgrade(buffer, n);
        if (answer == null) {
            return c.headRoom() == 0;
        }
        if (answer == FloorConnection.REFUSED) {
            channel(key).write(ByteBuffer.wrap(answer));
            return true;
        }
        output(key, c, ByteBuffer.wrap(answer), 0, answer.length);
        if (c.leftover() == 0) {
            return false;
        }
        int framed = c.reframe(buffer, c.leftover());
        if (framed < 0) {
            return true;
        }
        if (framed > 0) {
            output(key, c, buffer, c.outStart(), framed);
        }
        return c.closed() && c.pending() == null;
    }

    /** Writes what the socket takes of {@code src[from, from + len)}; keeps the rest and waits for writability. */
    private static void output(SelectionKey key, FloorConnection c, ByteBuffer src, int from, int len) throws IOException {
        if (c.pending() == null) {
            src.limit(from + len).position(from);
            while (src.hasRemaining() && channel(key).write(src) > 0) {
                // until all is out or the socket is full
            }
            if (!src.hasRemaining()) {
                return;
            }
            from = src.position();
            len = src.remaining();
        }
        c.keep(src, from, len);
        key.interestOps(SelectionKey.OP_WRITE);
    }

    /** Writes kept output; once all is out, reads again (or is done after an echoed close). */
    private static boolean flush(SelectionKey key, FloorConnection c) throws IOException {
        ByteBuffer pending = c.pending();
        while (pending.hasRemaining()) {
            if (channel(key).write(pending) == 0) {
                return false;
            }
        }
        c.sent();
        if (c.closed()) {
            return true;
        }
        key.interestOps(SelectionKey.OP_READ);
        return false;
    }

    private static SocketChannel channel(SelectionKey key) {
        return (SocketChannel) key.channel();
    }
}
