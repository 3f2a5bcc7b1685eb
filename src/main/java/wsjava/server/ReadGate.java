package wsjava.server;

import java.nio.channels.SelectionKey;

/**
 * Whether a connection is read, decided in one place from every reason not to: back-pressure (the
 * client does not read what we send) or a failure, input already read and not yet parsed (it waits
 * for room, for work, or for the server's reading to resume), the server's suspension of all reading,
 * and the application's wish. While draining (lingering close) it reads whatever comes, to drop it.
 *
 * <p>It also sizes reads: a connection that had to yield its pass (more input than a pass may
 * parse) reads less next time, down to {@link #MIN_WINDOW}, so what it carries over stays small;
 * while the inbound budget is spent every read is that small.
 */
final class ReadGate {

    /** The smallest read: room for a whole TLS record's plaintext. */
    static final int MIN_WINDOW = 32 * 1024;
    /**
     * The read while the inbound budget is spent: a read that finds no room is carried, and counted,
     * by every connection refused, so it is kept to a little more than a frame header and a small
     * message (thousands of connections refused at 32 KiB each held three times the budget).
     */
    static final int SPENT_WINDOW = 2 * 1024;

    private final ServerConnection connection;
    private final WebSocketServer server;
    private SelectionKey key;
    private boolean held;
    private boolean carrying;
    private boolean appPaused;
    private boolean draining;
    private int window = IoLoop.READ_BUFFER_BYTES;

    ReadGate(ServerConnection connection, WebSocketServer server) {
        this.connection = connection;
        this.server = server;
    }

    void register(SelectionKey selectionKey) {
        key = selectionKey;
    }

    /** Stops reading: back-pressure, or a connection that failed. */
    void hold() {
        held = true;
        update();
    }

    void release() {
        held = false;
        update();
    }

    boolean isHeld() {
        return held;
    }

    /** The application paused this connection ({@code suspendReading}). */
    boolean isAppPaused() {
        return appPaused;
    }

    void appPaused(boolean paused) {
        appPaused = paused;
        update();
    }

    /** Input is carried over (or no longer): nothing more is read until it is parsed. */
    void carrying(boolean carries) {
        carrying = carries;
        update();
    }

    /** From now on every byte is read, to be dropped. */
    void drain() {
        draining = true;
        update();
    }

    boolean isDraining() {
        return draining;
    }

    /** Whether the socket is being read now (its silence means the client's, not ours). */
    boolean isReading() {
        return key != null && key.isValid() && (key.interestOps() & SelectionKey.OP_READ) != 0;
    }

    /** Re-evaluates, for example when the connection's state changed. */
    void update() {
        // The application's and the server's pauses hold only while open: a close handshake needs the peer's reply.
        boolean paused = (appPaused || server.readingSuspended()) && connection.isOpen();
        setInterest(key, SelectionKey.OP_READ, draining || (!held && !carrying && !paused));
    }

    /** How much the next read may take; {@code budgetSpent}: the budget is spent and this connection has no overdraft. */
    int window(boolean budgetSpent) {
        return budgetSpent ? SPENT_WINDOW : window;
    }

    /** A pass ended: halve the window after a yield, grow it back after a pass that parsed everything. */
    void passEnded(boolean yielded) {
        window = yielded ? Math.max(MIN_WINDOW, window / 2) : Math.min(IoLoop.READ_BUFFER_BYTES, window * 2);
    }

    static void setInterest(SelectionKey key, int op, boolean on) {
        if (key != null && key.isValid()) {
            int ops = key.interestOps();
            int wanted = on ? ops | op : ops & ~op;
            if (wanted != ops) {
                key.interestOps(wanted);
            }
        }
    }
}
