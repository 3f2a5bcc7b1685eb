package wsjava.server;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * A server's life: binding the port, the I/O threads and the acceptor they serve, then the one stop
 * (asked for, or forced by an I/O thread that cannot go on), which gives open connections the close
 * timeout and ends the threads. Apart from {@link WebSocketServer} so that its public face reads as
 * an API, and so that another transport's loops start and stop in one known place.
 */
final class ServerLifecycle {

    private final WebSocketServer server;
    private final ServerConfig config;
    private final ConnectionRegistry registry;
    private final List<IoLoop> loops = new ArrayList<>();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private Acceptor acceptor;
    private TransportProvider transport;
    private volatile ServerMetrics metrics;
    private volatile boolean stopping;
    private volatile boolean stopped;
    private volatile Throwable failure;
    private int port;

    ServerLifecycle(WebSocketServer server, ServerConfig config, ConnectionRegistry registry) {
        this.server = server;
        this.config = config;
        this.registry = registry;
    }

    /**
     * Binds and starts the I/O threads; {@code bound} gets the port before any connection can
     * arrive. If binding fails nothing is left open and this may be tried again.
     */
    synchronized void start(IntConsumer bound) throws IOException {
        if (stopping) {
            throw new IllegalStateException("this server was stopped; create a new one");
        }
        if (acceptor != null) {
            throw new IllegalStateException("already started");
        }
        ResourceWarmUp.run();
        if (transport == null) {
            transport = TransportProvider.choose(config.transport());
        }
        ListeningSocket listening = transport.listen(config.host(), config.port(), 1024);
        try {
            port = listening.port();
            for (int i = 0; i < config.ioThreads(); i++) {
                loops.add(transport.loop(server, this, i));
            }
            acceptor = new Acceptor(server, this, listening, loops);
            loops.get(0).listen(acceptor);
        } catch (IOException | RuntimeException e) {
            acceptor = null;
            loops.forEach(IoLoop::discard);
            loops.clear();
            listening.close();
            throw e;
        }
        bound.accept(port);
        loops.forEach(IoLoop::start);
        metrics = ServerMetrics.register(server, config);
    }

    int port() {
        return port;
    }

    /** "nio" or "ffm" once started; null before. */
    String transport() {
        return transport == null ? null : transport.name();
    }

    List<IoLoop> loops() {
        return loops;
    }

    /** Starts the stop once; from an I/O thread (a listener) it goes on in a thread of its own and returns at once. */
    void stop(long closeTimeoutMillis) {
        if (closeTimeoutMillis < 0) {
            throw new IllegalArgumentException("closeTimeoutMillis must not be negative, was " + closeTimeoutMillis);
        }
        synchronized (this) {
            if (stopping || acceptor == null) {
                return;
            }
            stopping = true;
        }
        if (loops.stream().anyMatch(IoLoop::inLoop)) {
            Thread stopper = new Thread(() -> finishStop(closeTimeoutMillis), "wsjava-stop");
            stopper.setDaemon(true);
            stopper.start();
        } else {
            finishStop(closeTimeoutMillis);
        }
    }

    private void finishStop(long closeTimeoutMillis) {
        ServerMetrics.unregister(metrics);
        acceptor.close();
        loops.forEach(IoLoop::shutdownConnections);
        long deadline = System.nanoTime() + closeTimeoutMillis * 1_000_000L;
        while (registry.liveSockets() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (IoLoop loop : loops) {
            try {
                loop.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        stopped = true;
        terminated.countDown();
    }

    /** Counts a freshly accepted socket in, or says no (stopping, or at the connection limit). */
    boolean reserveSocket() {
        return !stopping && registry.reserveSocket(config.maxConnections());
    }

    /** An I/O thread cannot go on: the server stops, loudly, rather than keep a port nobody serves. */
    void loopFailed(String loop, Throwable e) {
        if (stopping) {
            return;
        }
        failure = e;
        ServerLog.log(Level.ERROR, "I/O thread " + loop + " failed; the server on port " + port + " stops", e);
        stop(config.closeTimeoutMillis());
    }

    boolean isRunning() {
        return acceptor != null && !stopping;
    }

    boolean isStopped() {
        return stopped;
    }

    Throwable failure() {
        return failure;
    }

    boolean awaitStopped(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }
}
