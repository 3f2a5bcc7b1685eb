package wsjava.client;

import java.io.IOException;
import java.net.URI;
import java.util.Random;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import wsjava.protocol.CloseCodes;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/**
 * The life of a {@link ReconnectingClient}: which connection is current, when to try again, when
 * to give up. Each connection's events arrive here (the connection's listener); only the current
 * one's reach the application, as the client's own. Decisions are made under this object's lock
 * and the application is called outside it, one event after the other: a drop's
 * {@code onReconnecting} comes before its attempt is scheduled, so an open never overtakes it.
 */
final class Reconnector implements WebSocketListener {

    private final ReconnectingClient client;
    private final URI uri;
    private final ReconnectListener listener;
    private final ClientConfig config;
    private final ReconnectPolicy policy;
    private final Random jitter = new Random();

    private volatile ClientConnection current;
    private volatile ClientConnection lastKnown;
    private volatile long id;
    private volatile boolean ended;
    /** Completes with the final close code once the listener's last onClose has returned. */
    final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private volatile boolean closeRequested;
    private boolean everOpened;
    private boolean readingSuspended;
    /** Failed attempts, and drops of connections that were not open long enough to count, since the last stable one. */
    private int attempts;
    private long openedAtNanos;
    private ScheduledFuture<?> scheduled;
    /** The connection whose listener threw (or whose open hook did): that ends the client, never reconnects it. */
    private volatile ClientConnection failedByApplication;

    Reconnector(ReconnectingClient client, URI uri, ReconnectListener listener, ClientConfig config, ReconnectPolicy policy) {
        this.client = client;
        this.uri = uri;
        this.listener = listener;
        this.config = config;
        this.policy = policy;
    }

    void connectFirst() throws IOException {
        WebSocketClient.connect(uri, this, config);
    }

    ClientConnection current() { return current; }
    ClientConnection lastKnown() { return lastKnown; }
    long id() { return id; }
    boolean hasEnded() { return ended; }
    boolean closeRequested() { return closeRequested; }

    // ---- the application's calls ----

    void close(int code, String reason) {
        if (!CloseCodes.isValidOnWire(code)) {
            throw new IllegalArgumentException("close code " + code + " may not be sent");
        }
        ClientConnection open;
        synchronized (this) {
            if (ended || closeRequested) {
                return;
            }
            closeRequested = true;
            open = current;
            if (scheduled != null) {
                scheduled.cancel(false);
            }
            if (open == null) {
                ended = true;
            }
        }
        if (open != null) {
            open.close(code, reason);      // its close event ends the client
        } else {
            finalClose(code, reason);
        }
    }

    void suspendReading(boolean suspended) {
        ClientConnection c;
        synchronized (this) {
            readingSuspended = suspended;
            c = current;
        }
        if (c != null && suspended) {
            c.suspendReading();
        } else if (c != null) {
            c.resumeReading();
        }
    }

    // ---- each connection's events (the connection calls these as its listener) ----

    @Override
    public void onOpen(WebSocketConnection opened) {
        ClientConnection c = (ClientConnection) opened;
        boolean reopen;
        synchronized (this) {
            if (ended || closeRequested) {
                c.close(CloseCodes.NORMAL, "");     // an attempt that finished after the application closed
                return;
            }
            if (id == 0) {
                id = c.id();
            }
            reopen = everOpened;
            everOpened = true;
            openedAtNanos = System.nanoTime();
            lastKnown = c;
            current = c;
            if (readingSuspended) {
                c.suspendReading();
            }
        }
        try {
            policy.openHook().accept(client);
            if (reopen) {
                listener.onReopened(client);
            } else {
                listener.onOpen(client);
            }
        } catch (RuntimeException e) {
            failedByApplication = c;
            throw e;        // the connection reports it and closes with 1011
        }
    }

    @Override public void onText(WebSocketConnection c, String text) { ifCurrent(c, () -> listener.onText(client, text)); }
    @Override public void onBinary(WebSocketConnection c, byte[] data) { ifCurrent(c, () -> listener.onBinary(client, data)); }
    @Override public void onPong(WebSocketConnection c, byte[] payload) { ifCurrent(c, () -> listener.onPong(client, payload)); }
    @Override public void onWritable(WebSocketConnection c) { ifCurrent(c, () -> listener.onWritable(client)); }
    @Override public void onError(WebSocketConnection c, Throwable error) { ifCurrent(c, () -> listener.onError(client, error)); }

    private void ifCurrent(WebSocketConnection c, Runnable call) {
        if (c != current) {
            return;
        }
        try {
            call.run();
        } catch (RuntimeException e) {
            failedByApplication = (ClientConnection) c;
            throw e;
        }
    }

    @Override
    public void onClose(WebSocketConnection closed, int code, String reason) {
        boolean reconnect;
        synchronized (this) {
            if (closed != current) {
                return;     // a connection the client no longer uses
            }
            current = null;
            if (System.nanoTime() - openedAtNanos >= policy.stableAfterMillis() * 1_000_000L) {
                attempts = 0;       // it stayed up: the next drop starts again from the first delay
            }
            reconnect = !closeRequested && failedByApplication != closed && policy.reconnectsAfter(code);
            ended = !reconnect;
        }
        if (reconnect) {
            retry(reason);
        } else {
            finalClose(code, reason);
        }
    }

    /** After a drop or a failed attempt: the next attempt, or giving up. */
    private void retry(String why) {
        int attempt;
        long delay;
        boolean giveUp;
        synchronized (this) {
            if (ended || closeRequested) {
                return;
            }
            attempt = ++attempts;
            giveUp = !policy.mayTry(attempt);
            ended = giveUp;
            delay = giveUp ? 0 : policy.delayMillis(attempt, jitter);
        }
        if (giveUp) {
            String reason = "gave up after " + policy.maxAttempts() + " attempts: " + why;
            tell(() -> listener.onGaveUp(client, reason));
            tell(() -> listener.onClose(client, CloseCodes.ABNORMAL, reason));
            closed.complete(CloseCodes.ABNORMAL);
            return;
        }
        tell(() -> listener.onReconnecting(client, attempt, delay));
        synchronized (this) {
            if (!ended && !closeRequested) {
                scheduled = ClientTimers.SCHEDULER.schedule(this::startAttempt, delay, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** A reconnect event for the application: what it throws must not stop the reconnecting. */
    /** The application hears the end once, then whoever waits on {@link #closed}. */
    private void finalClose(int code, String reason) {
        try {
            listener.onClose(client, code, reason);
        } finally {
            closed.complete(code);
        }
    }

    private void tell(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            try {
                listener.onError(client, e);
            } catch (RuntimeException ignored) {
                // nothing more to tell
            }
        }
    }

    /** Runs the blocking attempt on a thread of its own: the timer thread only schedules. */
    private void startAttempt() {
        Thread t = new Thread(this::attempt, "wsjava-reconnect-" + id);
        t.setDaemon(true);
        t.start();
    }

    private void attempt() {
        if (ended || closeRequested) {
            return;
        }
        try {
            WebSocketClient.connect(uri, this, config);
        } catch (IOException | RuntimeException e) {
            retry("connect failed: " + e.getMessage());
        }
    }
}
