package wsjava.server;

import java.nio.channels.SelectionKey;
import wsjava.protocol.MessageAssembler;

/**
 * Whether a connection is read, decided in one place from every reason not to: back-pressure (the
 * client does not read what we send) or a failure, the server's inbound budget, and the
 * application's wish. While draining (lingering close) it reads whatever comes, to drop it.
 *
 * <p>It also keeps the connection's share of the {@link InboundBudget} up to date.
 */
final class ReadGate {

    /** How long the overdraft holder may send nothing before another paused connection gets a turn. */
    private static final long OVERDRAFT_PATIENCE_NANOS = 1_000_000_000L;

    private final ServerConnection connection;
    private final InboundBudget budget;
    private SelectionKey key;
    private boolean held;
    private boolean budgetPaused;
    private boolean appPaused;
    private boolean draining;
    private long budgeted;

    ReadGate(ServerConnection connection, InboundBudget budget) {
        this.connection = connection;
        this.budget = budget;
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

    void appPaused(boolean paused) {
        appPaused = paused;
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

    /** Re-evaluates, for example when the connection's state changed. */
    void update() {
        // The application's pause holds only while open: a close handshake needs the peer's reply.
        boolean read = draining || (!held && !budgetPaused && !(appPaused && connection.isOpen()));
        setInterest(key, SelectionKey.OP_READ, read);
    }

    /** Brings the budget up to date with the assembler's buffer, and pauses this connection if it must. */
    void account(MessageAssembler assembler, boolean closed) {
        if (assembler == null) {
            return;
        }
        long now = closed ? 0 : assembler.bufferCapacity();
        if (now != budgeted) {      // most reads change nothing: spare the shared counter
            budget.add(now - budgeted);
            budgeted = now;
        }
        if (closed || !assembler.messageInProgress()) {
            budget.releaseOverdraft(connection);
        } else if (budget.over() && !budget.tryOverdraft(connection) && !budgetPaused) {
            budgetPaused = true;
            update();
        }
    }

    /**
     * On the timer: a budget pause ends when there is room again or this connection gets the
     * overdraft; a holder silent for too long passes it on. Returns true when a turn starts now.
     */
    boolean checkBudget(long now, long lastHeardNanos) {
        if (budgetPaused && (budget.roomToResume() || budget.tryOverdraft(connection))) {
            budgetPaused = false;
            update();
            return true;
        }
        if (!budgetPaused && budget.holdsOverdraft(connection) && budget.over() && now - lastHeardNanos > OVERDRAFT_PATIENCE_NANOS) {
            budget.releaseOverdraft(connection);
            budgetPaused = true;
            update();
        }
        return false;
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
