package wsjava.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.ScheduledFuture;

/**
 * The connect timeout of one {@link WebSocketClient#connect}: for TCP, TLS and the opening
 * handshake together. Every read of the handshake answer waits at most what is left of it (a server
 * that drips its answer a byte at a time cannot stretch it), and a timer closes the socket when it
 * passes, which also ends a TLS handshake the server drags out.
 */
final class ConnectDeadline implements AutoCloseable {

    private final Socket socket;
    private final long deadlineNanos;
    private final int millis;
    private final ScheduledFuture<?> timer;
    private volatile boolean expired;

    ConnectDeadline(Socket socket, int millis) {
        this.socket = socket;
        this.millis = millis;
        this.deadlineNanos = System.nanoTime() + millis * 1_000_000L;
        this.timer = ClientOutbox.schedule(this::expire, millis);
    }

    private void expire() {
        expired = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all the timer is for
        }
    }

    /** What is left, in milliseconds; throws once it has passed. */
    int remainingMillis() throws SocketTimeoutException {
        long left = (deadlineNanos - System.nanoTime()) / 1_000_000L;
        if (left <= 0 || expired) {
            throw timedOut();
        }
        return (int) left;
    }

    SocketTimeoutException timedOut() {
        return new SocketTimeoutException("connect timeout: no complete handshake within " + millis + " ms");
    }

    /** Whether the timer has closed the socket (an IOException then means the timeout). */
    boolean expired() {
        return expired;
    }

    /** {@code in}, each of whose reads waits at most what is left of the deadline. */
    InputStream bounded(InputStream in) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                socket.setSoTimeout(remainingMillis());
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                socket.setSoTimeout(remainingMillis());
                return in.read(b, off, len);
            }
        };
    }

    /** The handshake is done in time: the timer is cancelled. */
    @Override
    public void close() {
        timer.cancel(false);
    }
}
