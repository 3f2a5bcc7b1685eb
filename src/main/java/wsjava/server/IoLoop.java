package wsjava.server;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * One I/O thread: a selector over its share of the connections, a queue of tasks other threads
 * hand it, and a timer pass a few times a second for deadlines. Writes requested while it is
 * handling events are batched and done once per pass. One read buffer serves all its connections,
 * since the parsers copy out whatever they keep.
 */
final class IoLoop implements Runnable {

    private static final long TIMER_INTERVAL_NANOS = 100_000_000L;

    private final WebSocketServer server;
    private final ServerLifecycle lifecycle;
    private final Selector selector;
    static final int READ_BUFFER_BYTES = LoopBuffers.READ_BUFFER_BYTES;

    private final LoopBuffers buffers = new LoopBuffers(new DirectPool(this::inLoop, this::execute));

    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<ServerConnection> flushes = new ConcurrentLinkedQueue<>();
    /** Connections that yielded their pass with input left: each goes on once per pass. */
    private final List<ServerConnection> yielded = new ArrayList<>();
    private final List<ServerConnection> yieldedNow = new ArrayList<>();
    private final OutOfMemoryGuard memory = new OutOfMemoryGuard();
    private final List<ServerConnection> timerSnapshot = new ArrayList<>();
    private final Consumer<SelectionKey> onReady = this::ready;
    private volatile boolean running = true;
    private Acceptor acceptor;
    private long nextTimerNanos;

    IoLoop(WebSocketServer server, ServerLifecycle lifecycle, int index) throws IOException {
        this.server = server;
        this.lifecycle = lifecycle;
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

    /** Runs {@code task} at this loop's next task run, even on its own thread: never inside the caller's locks. */
    void executeLater(Runnable task) {
        tasks.add(task);
        selector.wakeup();
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
            } catch (IOException e) {
                connection.closeChannel();
            }
        });
    }

    /** The buffers this loop's connections share (only on its thread). */
    LoopBuffers buffers() {
        return buffers;
    }

    /** {@code connection} used up its pass with input left: it goes on in the next pass, after the others' reads. */
    void continueSoon(ServerConnection connection) {
        yielded.add(connection);
    }

    /**
     * The server suspended or resumed reading: every connection here re-decides, at the next pass
     * (never at once: this may be called from a listener, in the middle of a connection's parse).
     */
    void readingSwitched() {
        tasks.add(() -> connections(new ArrayList<>()).forEach(ServerConnection::readingSwitched));
        selector.wakeup();
    }

    /**
     * This loop's connections, added to {@code into}: the attachments of the selector's valid keys
     * (a connection cancels its key as it closes). The selector keeps them anyway, so a set of our
     * own would only cost every connection an entry.
     */
    private List<ServerConnection> connections(List<ServerConnection> into) {
        for (SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof ServerConnection) {
                into.add((ServerConnection) key.attachment());
            }
        }
        return into;
    }

    /** Graceful stop, step one: every connection starts closing. */
    void shutdownConnections() {
        execute(() -> connections(new ArrayList<>()).forEach(ServerConnection::shutdown));
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
                try {
                    pass();
                } catch (OutOfMemoryError e) {   // outside any one connection's handling: the loop goes on
                    memory.outOfMemory(null);
                }
            }
        } catch (Throwable e) {   // the selector itself failed (per-connection failures are caught below)
            lifecycle.loopFailed(thread.getName(), e);
        } finally {
            connections(new ArrayList<>()).forEach(ServerConnection::closeChannel);
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private void pass() throws IOException {
        // select(Consumer) hands each ready key over as found: no selected-key HashSet to fill,
        // iterate and empty (JFR, 64 B echo: its nodes were an eighth of the loop's allocation).
        if (yielded.isEmpty()) {
            selector.select(onReady, 50);
        } else {
            selector.selectNow(onReady);          // connections have work left: don't wait for new input
        }
        continueYielded();
        runTasks();
        flushRequested();
        long now = System.nanoTime();
        if (now - nextTimerNanos > 0) {
            nextTimerNanos = now + TIMER_INTERVAL_NANOS;
            runTimers(now);
        }
    }

    /** One more pass for each connection that yielded the last one (those yielding again wait for the next). */
    private void continueYielded() {
        yieldedNow.addAll(yielded);
        yielded.clear();
        for (ServerConnection connection : yieldedNow) {
            try {
                connection.continueCarried();
            } catch (Throwable e) {   // no Throwable may end the loop: only this connection goes
                failed(connection, e);
            }
        }
        yieldedNow.clear();
    }

    /** A connection's handling threw: it alone goes (out of memory without allocating: see OutOfMemoryGuard). */
    private void failed(ServerConnection connection, Throwable e) {
        if (e instanceof OutOfMemoryError) {
            memory.outOfMemory(connection);
            return;
        }
        try {
            ServerLog.log(Level.WARNING, "unexpected error on " + connection + "; that connection is closed, the others go on", e);
        } finally {
            if (connection != null) {
                connection.closeChannel();
            }
        }
    }

    private void ready(SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        if (key.attachment() instanceof Acceptor) {
            try {
                acceptor.onAcceptable();
            } catch (Throwable e) {   // no Throwable may end the loop: the next accept may well work
                failed(null, e);
            }
            return;
        }
        ServerConnection connection = (ServerConnection) key.attachment();
        try {
            if (key.isReadable()) {
                connection.onReadable(buffers.read);
            }
            if (key.isValid() && key.isWritable()) {
                connection.flush();
            }
        } catch (Throwable e) {   // no Throwable may end the loop: only this connection goes
            failed(connection, e);
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            try {
                task.run();
            } catch (Throwable e) {   // no Throwable may end the loop: only this connection goes
                failed(null, e);
            }
        }
    }

    private void flushRequested() {
        ServerConnection connection;
        while ((connection = flushes.poll()) != null) {
            try {
                connection.flush();
            } catch (Throwable e) {   // no Throwable may end the loop: only this connection goes
                failed(connection, e);
            }
        }
    }

    private void runTimers(long now) {
        if (acceptor != null) {
            acceptor.onTimer(now);
        }
        timerSnapshot.clear();
        connections(timerSnapshot);
        for (ServerConnection connection : timerSnapshot) {
            try {
                connection.onTimer(now);
            } catch (Throwable e) {   // no Throwable may end the loop: only this connection goes
                failed(connection, e);
            }
        }
        timerSnapshot.clear();
        memory.replenish();
        buffers.directPool.trimIfShort();
    }
}
