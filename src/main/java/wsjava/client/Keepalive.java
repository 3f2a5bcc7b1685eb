package wsjava.client;

import java.nio.ByteBuffer;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/**
 * Keepalive for one client connection: a ping every {@code pingIntervalMillis}, and when no byte
 * arrives at the socket within {@code pongTimeoutMillis} of it while the reader waits there, the
 * connection is taken for dead and dropped (the listener hears 1006), as a half-open TCP connection
 * would otherwise never tell. Liveness is judged by bytes read, not messages delivered: time the
 * reader does not read (the application suspended reading, the listener is busy, the writer is
 * backed up) is no silence of the server's, so it never counts toward the timeout. It sits between
 * the connection and the application's listener, passing every call on.
 */
final class Keepalive implements WebSocketListener {

    private final WebSocketListener listener;
    private final long intervalNanos;
    private final long timeoutNanos;
    private final long checkMillis;
    private volatile ScheduledFuture<?> task;
    private volatile long lastPingNanos;
    /** When the ping that has not been answered yet was sent; 0 when none is outstanding. */
    private volatile long awaitingSinceNanos;

    Keepalive(WebSocketListener listener, ClientConfig config) {
        this.listener = listener;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(config.pingIntervalMillis());
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.pongTimeoutMillis());
        this.checkMillis = Math.max(5, Math.min(config.pingIntervalMillis(), config.pongTimeoutMillis()) / 4);
    }

    /** The listener to give a connection: with keepalive when the config asks for pings. */
    static WebSocketListener around(WebSocketListener listener, ClientConfig config) {
        return config.pingIntervalMillis() > 0 ? new Keepalive(listener, config) : listener;
    }

    private void check(ClientConnection connection) {
        long now = System.nanoTime();
        long since = awaitingSinceNanos;
        if (since != 0 && connection.bytesArrivedNanos() - since > 0) {
            heard();      // the server sent something after our ping: it is alive, whatever reached the application
            return;
        }
        if (since != 0 && !connection.awaitingBytes()) {
            awaitingSinceNanos = now;     // not reading: the server's silence cannot be judged, so the wait starts again
            return;
        }
        if (since != 0 && now - since > timeoutNanos) {
            stop();
            connection.abort("no pong within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
        } else if (since == 0 && now - lastPingNanos >= intervalNanos && connection.isOpen()) {
            lastPingNanos = now;
            awaitingSinceNanos = now;
            connection.ping(new byte[0]);
        }
    }

    private void heard() {
        awaitingSinceNanos = 0;
    }

    private void stop() {
        ScheduledFuture<?> t = task;
        if (t != null) {
            t.cancel(false);
        }
    }

    @Override
    public void onOpen(WebSocketConnection c) {
        lastPingNanos = System.nanoTime();
        task = ClientTimers.SCHEDULER.scheduleWithFixedDelay(() -> check((ClientConnection) c), checkMillis, checkMillis, TimeUnit.MILLISECONDS);
        listener.onOpen(c);
    }

    @Override
    public void onText(WebSocketConnection c, String text) {
        heard();
        listener.onText(c, text);
    }

    @Override
    public void onBinary(WebSocketConnection c, byte[] data) {
        heard();
        listener.onBinary(c, data);
    }

    @Override
    public void onBinary(WebSocketConnection c, ByteBuffer message) {
        heard();
        listener.onBinary(c, message);
    }

    @Override
    public void onPong(WebSocketConnection c, byte[] payload) {
        heard();
        listener.onPong(c, payload);
    }

    @Override
    public void onWritable(WebSocketConnection c) {
        listener.onWritable(c);
    }

    @Override
    public void onClose(WebSocketConnection c, int code, String reason) {
        stop();
        listener.onClose(c, code, reason);
    }

    @Override
    public void onError(WebSocketConnection c, Throwable error) {
        listener.onError(c, error);
    }
}
