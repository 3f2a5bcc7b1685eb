package wsjava.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One I/O thread: a selector over its share of the connections, a queue of tasks other threads
 * hand it, and a timer pass a few times a second for deadlines. Writes requested while it is
 * handling events are batched and done once per pass. One read buffer serves all its connections,
 * since the parsers copy out whatever they keep.
 */
final class IoLoop implements Runnable {

    private static final long TIMER_INTERVAL_NANOS = 100_000_000L;

    private final WebSocketServer server;
    private final Selector selector;
    static final int READ_BUFFER_BYTES = 512 * 1024;

    /** Direct buffers for messages its connections assemble (when their listener reads buffers). */
    private final DirectPool directPool = new DirectPool(this::inLoop);

    private final Thread thread;
    /**
     * Direct, so the socket reads straight into it and frames are unmasked where they landed (a heap
     * buffer costs the JDK a copy per read); as large as uWebSockets' so a big message takes few reads.
     */
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
    private final ByteBuffer[] gather = new ByteBuffer[OutboundQueue.MAX_GATHER];
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<ServerConnection> flushes = new ConcurrentLinkedQueue<>();
    private final Set<ServerConnection> connections = new HashSet<>();
    private final List<ServerConnection> timerSnapshot = new ArrayList<>();
    private volatile boolean running = true;
    private Acceptor acceptor;
    private long nextTimerNanos;

    IoLoop(WebSocketServer server, int index) throws IOException {
        this.server = server;
        this.selector = Selector.open();
        this.thread = new Thread(this, "wsjava-io-" + index);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Runs {@code task} on this loop's thread: now if already on it, else at its next pass. */
    void execute(Runnable task) {
        if (inLoop()) {
            task.run();
        } else {
            tasks.add(task);
            selector.wakeup();
        }
    }

    /** Asks for a flush of {@code connection} at the end of this pass (or the next one). */
    void flushSoon(ServerConnection connection) {
        flushes.add(connection);
        if (!inLoop()) {
            selector.wakeup();
        }
    }

    /** This loop also accepts connections for the server. */
    void listen(Acceptor serverAcceptor) throws IOException {
        acceptor = serverAcceptor;
        acceptor.register(selector);
    }

    /** Releases a loop that was never started (the server's bind failed). */
    void discard() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing was registered that needs it
        }
    }

    /** Takes over a freshly accepted channel. */
    void adopt(SocketChannel channel) {
        execute(() -> {
            ServerConnection connection = new ServerConnection(channel, this, server);
            try {
                connection.register(channel.register(selector, SelectionKey.OP_READ, connection));
                connections.add(connection);
            } catch (IOException e) {
                connection.closeChannel();
            }
        });
    }

    /** Scratch array for gathering writes; only this loop's thread uses it. */
    private ByteBuffer tlsIn;
    private ByteBuffer tlsOut;

    /** Scratch for received TLS ciphertext, shared by this loop's connections; cleared, at least {@code capacity}. */
    ByteBuffer tlsInScratch(int capacity) {
        if (tlsIn == null || tlsIn.capacity() < capacity) {
            tlsIn = ByteBuffer.allocate(capacity);
        }
        return tlsIn.clear();
    }

    /** Scratch for TLS ciphertext being made, shared by this loop's connections; cleared, at least {@code capacity}. */
    ByteBuffer tlsOutScratch(int capacity) {
        if (tlsOut == null || tlsOut.capacity() < capacity) {
            tlsOut = ByteBuffer.allocate(capacity);
        }
        return tlsOut.clear();
    }

    /** The loop's read buffer, shared by its connections (a TLS handshake resumed later reads into it). */
    DirectPool directPool() {
        return directPool;
    }

    ByteBuffer readBuffer() {
        return readBuffer;
    }

    ByteBuffer[] gatherArray() {
        return gather;
    }

    void forget(ServerConnection connection) {
        connections.remove(connection);
    }

    /** Graceful stop, step one: every connection starts closing. */
    void shutdownConnections() {
        execute(() -> new ArrayList<>(connections).forEach(ServerConnection::shutdown));
    }

    /** Stops the thread and drops whatever is still connected. */
    void stop() throws InterruptedException {
        running = false;
        selector.wakeup();
        if (!inLoop()) {
            thread.join(5_000);
        }
    }

    @Override
    public void run() {
        try {
            while (running) {
                selector.select(50);
                handleSelected();
                runTasks();
                flushRequested();
                long now = System.nanoTime();
                if (now - nextTimerNanos > 0) {
                    nextTimerNanos = now + TIMER_INTERVAL_NANOS;
                    runTimers(now);
                }
            }
        } catch (Throwable e) {   // the selector itself failed (per-connection failures are caught below)
            server.loopFailed(thread.getName(), e);
        } finally {
            new ArrayList<>(connections).forEach(ServerConnection::closeChannel);
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private void handleSelected() {
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
            SelectionKey key = keys.next();
            keys.remove();
            if (!key.isValid()) {
                continue;
            }
            if (key.attachment() instanceof Acceptor) {
                try {
                    acceptor.onAcceptable();
                } catch (Throwable e) {   // no Throwable may end the loop: the next accept may well work
                    server.connectionBug(null, e);
                }
                continue;
            }
            ServerConnection connection = (ServerConnection) key.attachment();
            try {
                if (key.isReadable()) {
                    connection.onReadable(readBuffer);
                }
                if (key.isValid() && key.isWritable()) {
                    connection.flush();
                }
            } catch (Throwable e) {   // no Throwable may end the loop: only this connection goes
                // A bug for one connection must not take down the loop and everyone else on it.
                server.connectionBug(connection, e);
                connection.closeChannel();
            }
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            try {
                task.run();
            } catch (Throwable e) {   // no Throwable may end the loop: only this connection goes
                server.connectionBug(null, e);
            }
        }
    }

    private void flushRequested() {
        ServerConnection connection;
        while ((connection = flushes.poll()) != null) {
            try {
                connection.flush();
            } catch (Throwable e) {   // no Throwable may end the loop: only this connection goes
                server.connectionBug(connection, e);
                connection.closeChannel();
            }
        }
    }

    private void runTimers(long now) {
        if (acceptor != null) {
            acceptor.onTimer(now);
        }
        timerSnapshot.clear();
        timerSnapshot.addAll(connections);
        for (ServerConnection connection : timerSnapshot) {
            try {
                connection.onTimer(now);
            } catch (Throwable e) {   // no Throwable may end the loop: only this connection goes
                server.connectionBug(connection, e);
                connection.closeChannel();
            }
        }
        timerSnapshot.clear();
    }
}
