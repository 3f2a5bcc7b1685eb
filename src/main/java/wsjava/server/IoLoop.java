package wsjava.server;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One I/O thread: its share of the connections, watched by its transport ({@link SelectorLoop} on
 * NIO, or epoll through FFM), a queue of tasks other threads hand it, and a timer pass a few times a
 * second for deadlines. Writes requested while it is handling events are batched and done once per
 * pass. One read buffer serves all its connections, since the parsers copy out whatever they keep.
 */
abstract class IoLoop implements Runnable {

    private static final long TIMER_INTERVAL_NANOS = 100_000_000L;

    private final WebSocketServer server;
    private final ServerLifecycle lifecycle;
    static final int READ_BUFFER_BYTES = LoopBuffers.READ_BUFFER_BYTES;

    private final LoopBuffers buffers = new LoopBuffers(new DirectPool(this::inLoop, this::execute));

    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<ServerConnection> flushes = new ConcurrentLinkedQueue<>();
    /** Connections that yielded their pass with input left: each goes on once per pass. */
    private final List<ServerConnection> yielded = new ArrayList<>();
    private final List<ServerConnection> yieldedNow = new ArrayList<>();
    private final OutOfMemoryGuard memory = new OutOfMemoryGuard();
    private final LoopCounters counters = new LoopCounters();
    private final List<ServerConnection> timerSnapshot = new ArrayList<>();
    private volatile boolean running = true;
    Acceptor acceptor;
    private long nextTimerNanos;

    IoLoop(WebSocketServer server, ServerLifecycle lifecycle, int index) {
        this.server = server;
        this.lifecycle = lifecycle;
        this.thread = new Thread(this, "wsjava-io-" + index);
        server.stats().add(counters);
        this.thread.setDaemon(true);
    }

    // ---- what a transport's loop provides ----

    /** Makes the thread's wait (or its next one) return now; from any thread. */
    abstract void wakeup();

    /** Starts watching {@code acceptor}'s listening socket (this loop accepts for the server). */
    abstract void watchListener() throws IOException;

    /** Starts watching {@code connection}'s socket for reads; false when that failed (it is then closed). */
    abstract boolean watch(ServerConnection connection);

    /** Adds this loop's connections to {@code into}: those its transport still watches. */
    abstract List<ServerConnection> connections(List<ServerConnection> into);

    /**
     * Waits up to {@code timeoutMillis} (0: not at all) for ready sockets and hands each to
     * {@link #readyListener()} or {@link #ready(ServerConnection, boolean, boolean)}.
     */
    abstract void poll(long timeoutMillis) throws IOException;

    /** Releases what the transport holds (its selector or descriptors); the loop's last act. */
    abstract void release();

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
            wakeup();
        }
    }

    /** Runs {@code task} at this loop's next task run, even on its own thread: never inside the caller's locks. */
    void executeLater(Runnable task) {
        tasks.add(task);
        wakeup();
    }

    /** Asks for a flush of {@code connection} at the end of this pass (or the next one). */
    void flushSoon(ServerConnection connection) {
        flushes.add(connection);
        if (!inLoop()) {
            wakeup();
        }
    }

    /** This loop also accepts connections for the server. */
    void listen(Acceptor serverAcceptor) throws IOException {
        acceptor = serverAcceptor;
        watchListener();
    }

    /** Releases a loop that was never started (the server's bind failed). */
    void discard() {
        release();
    }

    /** Takes over a freshly accepted socket. */
    void adopt(ConnectionSocket socket) {
        execute(() -> {
            ServerConnection connection = new ServerConnection(socket, this, server);
            if (watch(connection)) {
                connection.registered();
            } else {
                connection.closeChannel();
            }
        });
    }

    /** This loop's part of the server's counters. */
    LoopCounters counters() {
        return counters;
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
        wakeup();
    }

    /** Graceful stop, step one: every connection starts closing. */
    void shutdownConnections() {
        execute(() -> connections(new ArrayList<>()).forEach(ServerConnection::shutdown));
    }

    /** Stops the thread and drops whatever is still connected. */
    void stop() throws InterruptedException {
        running = false;
        wakeup();
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
        } catch (Throwable e) {   // the transport itself failed (per-connection failures are caught below)
            lifecycle.loopFailed(thread.getName(), e);
        } finally {
            connections(new ArrayList<>()).forEach(ServerConnection::closeChannel);
            release();
        }
    }

    private void pass() throws IOException {
        poll(yielded.isEmpty() ? 50 : 0);       // connections have work left: don't wait for new input
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
        if (yielded.isEmpty()) {
            return;
        }
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

    /** The listening socket has connections waiting. */
    final void readyListener() {
        try {
            acceptor.onAcceptable();
        } catch (Throwable e) {   // no Throwable may end the loop: the next accept may well work
            failed(null, e);
        }
    }

    /** {@code connection}'s socket is readable, writable, or both (a writable one is flushed unless closed by its read). */
    final void ready(ServerConnection connection, boolean readable, boolean writable) {
        try {
            if (readable) {
                connection.onReadable(buffers.read);
            }
            if (writable && !connection.isClosed()) {
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
