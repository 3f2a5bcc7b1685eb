package wsjava.server;

import wsjava.server.internal.EventRoom;

/**
 * Whether a connection is read, decided in one place from every reason not to: back-pressure (the
 * client does not read what we send) or a failure, input already read and not yet parsed (it waits
 * for room, for work, or for the server's reading to resume), the server's suspension of all reading
 * (upgrades wait; open connections are read only for a close or FIN, up to a small carry), and the
 * application's wish. While draining (lingering close) it reads whatever comes, to drop it.
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
    /**
     * What an open connection may have read and not parsed while the server's reading is suspended:
     * it is still read up to this much, so a client that leaves (a close frame, a FIN) is seen and
     * its socket, request and slot released, but no message payload past it is taken into memory.
     */
    static final int SUSPENDED_CARRY = 2 * 1024;

    /** Its server and socket are the connection's: not kept again here. */
    private final ServerConnection connection;
    private boolean held;
    private boolean carrying;
    private boolean upgradeWaited;
    /** Input carried over, in bytes (what {@link #SUSPENDED_CARRY} limits). */
    private int carried;
    private boolean appPaused;
    private boolean draining;
    private int window = IoLoop.READ_BUFFER_BYTES;

    ReadGate(ServerConnection connection) {
        this.connection = connection;
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

    /** {@code bytes} of input are carried over (or none): nothing more is read until it is parsed, unless suspended. */
    void carrying(int bytes) {
        carrying = bytes > 0;
        carried = bytes;
        update();
    }

    /** The server's reading is suspended and this connection is open: it is read only up to {@link #SUSPENDED_CARRY}. */
    boolean suspendedOpen() {
        return connection.server.readingSuspended() && connection.isOpen();
    }

    /**
     * While the server's reading is suspended, or its listener has no room for another open event, a
     * connection not yet upgraded is not read: its upgrade waits (the handshake timeout still applies).
     */
    boolean upgradeWaits() {
        boolean waits = headWaits();
        if (waits != upgradeWaited) {       // the timer and the read ask: the socket's interest follows
            update();
        }
        return waits;
    }

    private boolean headWaits() {
        EventRoom room = connection.server.limits().events;
        return connection.readsHead() && (connection.server.readingSuspended() || (room != null && !room.mayOpen()));
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
        return connection.socket.watchesReads();
    }

    /** Re-evaluates, for example when the connection's state changed. */
    void update() {
        // The application's pause holds only while open: a close handshake needs the peer's reply. The
        // server's suspension stops upgrades, and open connections once they carry SUSPENDED_CARRY.
        boolean suspended = suspendedOpen();
        upgradeWaited = headWaits();
        boolean paused = (appPaused && connection.isOpen()) || upgradeWaited;
        boolean roomToCarry = !carrying || (suspended && carried < SUSPENDED_CARRY);
        connection.socket.watchReads(draining || (!held && roomToCarry && !paused));
    }

    /** How much the next read may take; {@code budgetSpent}: the budget is spent and this connection has no overdraft. */
    int window(boolean budgetSpent) {
        if (suspendedOpen()) {
            return Math.max(0, SUSPENDED_CARRY - carried);
        }
        return budgetSpent ? SPENT_WINDOW : window;
    }

    /** A pass ended: halve the window after a yield, grow it back after a pass that parsed everything. */
    void passEnded(boolean yielded) {
        window = yielded ? Math.max(MIN_WINDOW, window / 2) : Math.min(IoLoop.READ_BUFFER_BYTES, window * 2);
    }
}
