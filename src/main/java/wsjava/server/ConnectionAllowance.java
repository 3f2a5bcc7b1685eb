package wsjava.server;

import wsjava.protocol.InboundLimits;
import wsjava.protocol.MessageAssembler;
import wsjava.server.internal.EventRoom;

/**
 * What one connection may hold and do, as its assembler asks ({@link InboundLimits}): memory from
 * the server's {@link InboundBudget}, a bounded amount of work per loop pass (frames, bytes
 * inflated), nothing new while the server's reading is suspended. It remembers why it last said no,
 * so the connection knows when to go on: next pass (work), when there is room or it gets the
 * overdraft (budget), when reading resumes (paused).
 *
 * <p>It also keeps the connection's share of the budget exact (its assembler's buffers plus input
 * carried over) and watches the overdraft: a holder that receives less than
 * {@link #MIN_PROGRESS_BYTES} in a second while others wait gives it up, and if its message already
 * holds memory granted past the limit, that message fails ({@link Verdict#STALLED}): memory past the
 * budget belongs to one moving message at a time, so stalled turns can never pile up past it.
 */
final class ConnectionAllowance implements InboundLimits {

    /** Frames a connection may complete per loop pass; then it yields. */
    static final int FRAMES_PER_PASS = 1024;
    /** Bytes a connection may inflate per loop pass; then it yields. */
    static final int INFLATE_PER_PASS = 1024 * 1024;
    /** What an overdraft holder must receive per second, while others wait, to keep it. */
    static final long MIN_PROGRESS_BYTES = 64 * 1024;
    private static final long PROGRESS_WINDOW_NANOS = 1_000_000_000L;

    enum Refusal { NONE, WORK, BUDGET, PAUSED }

    /** What the timer finds: nothing to do, a stopped pass may go on, or the message stalled past the budget. */
    enum Verdict { NONE, RETRY, STALLED }

    private final ServerConnection connection;
    private final InboundBudget budget;
    private final WebSocketServer server;
    /**
     * Room reserved in the listener's event queue for the message in progress: made at the first
     * reservation, kept (empty) between messages, and dropped when the connection is at rest
     * ({@link #atRest}), so an idle connection keeps none and a listener without a room never makes one.
     */
    private RoomShare room;
    private int framesLeft;
    private long inflateLeft;
    private Refusal refusal = Refusal.NONE;
    private boolean waitingForRoom;
    /** The message in progress was granted memory with the overdraft (past the budget's limit). */
    private boolean overdrawn;
    /** What this connection has added to the budget: message buffers, and input carried over. */
    private long budgeted;
    private long carriedBudgeted;
    private long windowStart = System.nanoTime();
    private long receivedInWindow;

    ConnectionAllowance(ServerConnection connection, InboundBudget budget, WebSocketServer server) {
        this.connection = connection;
        this.budget = budget;
        this.server = server;
    }

    /** The listener's room for events, or null when it has none. */
    private EventRoom events() {
        return server.limits().events;
    }

    /** Room for {@code dataBytes} more of the message in progress (see {@link RoomShare#reserve}); always, without a room. */
    private boolean reserveRoom(long dataBytes) {
        if (events() == null || dataBytes <= 0) {
            return true;
        }
        return share().reserve(dataBytes);
    }

    /** This connection's share of the listener's room (there is one), made at its first use. */
    private RoomShare share() {
        if (room == null) {
            room = new RoomShare(events(), connection);
        }
        return room;
    }

    /** The message was delivered or dropped: its room goes back (see {@link RoomShare#releaseAll}). */
    private void releaseRoom() {
        if (room != null) {
            room.releaseAll();
        }
    }

    /** The connection is at rest, between messages with nothing read since the last timer pass: its share goes. */
    void atRest() {
        releaseRoom();
        room = null;
    }

    /** A loop pass begins for this connection: its work allowance is full again. */
    void newPass() {
        framesLeft = FRAMES_PER_PASS;
        inflateLeft = INFLATE_PER_PASS;
        refusal = Refusal.NONE;
    }

    Refusal refusal() {
        return refusal;
    }

    @Override
    public boolean mayGrow(long bytes) {
        if (!reserveRoom(bytes)) {
            refusal = Refusal.PAUSED;      // the event queue is full: on when the server's reading resumes
            return false;
        }
        boolean held = budget.holdsOverdraft(connection);
        if (budget.tryReserve(connection, bytes)) {
            budgeted += bytes;       // the assembler's buffer: account() confirms it
            if (budget.holdsOverdraft(connection)) {
                overdrawn = true;
                if (!held) {
                    turnBegins(System.nanoTime());
                }
            }
            return true;
        }
        if (room != null) {
            room.giveBack(bytes);
        }
        refusal = Refusal.BUDGET;
        return false;
    }

    /** Growth that completes the message: only the event queue's room may refuse it (the budget counts it after the pass). */
    @Override
    public boolean mayComplete(long bytes) {
        if (reserveRoom(bytes)) {
            return true;
        }
        refusal = Refusal.PAUSED;
        return false;
    }

    @Override
    public boolean mayInflate(int bytes) {
        if (inflateLeft <= 0) {
            refusal = Refusal.WORK;
            return false;
        }
        inflateLeft -= bytes;
        return true;
    }

    @Override
    public boolean frameDone() {
        if (--framesLeft > 0 && inflateLeft > 0) {     // inflation a completing message did without asking counts here
            return true;
        }
        refusal = Refusal.WORK;
        return false;
    }

    @Override
    public boolean mayStartMessage() {
        releaseRoom();      // asked between messages only: the last one was delivered, its event holds its own room now
        if (server.readingSuspended() || (events() != null && !reserveStart())) {
            refusal = Refusal.PAUSED;
            return false;
        }
        return true;
    }

    /** Room for a message's start, with the buffer it may fill without growing: the one kept from the last message. */
    private boolean reserveStart() {
        MessageAssembler assembler = connection.assembler();
        return share().reserveStart(assembler == null ? 0 : assembler.bufferCapacity());
    }

    @Override
    public boolean mayKeep(int bytes) {
        return budget.roomToKeep();
    }

    /** Bytes read from the socket, for the overdraft's progress. */
    void received(int bytes) {
        receivedInWindow += bytes;
    }

    /**
     * After a pass: the budget gets this connection's real holdings ({@code carried}: input kept for
     * later), the overdraft goes back once no message is in progress, and a connection refused for
     * room is counted as waiting. {@code closed}: it holds nothing any more.
     */
    void account(MessageAssembler assembler, int carried, boolean closed) {
        long buffers = closed || assembler == null ? 0 : assembler.bufferCapacity();
        long input = closed ? 0 : carried;
        if (buffers != budgeted || input != carriedBudgeted) {   // most passes change nothing: spare the shared counters
            budget.add(buffers - budgeted, input - carriedBudgeted);
            budgeted = buffers;
            carriedBudgeted = input;
        }
        boolean inProgress = !closed && assembler != null && assembler.messageInProgress();
        if (!inProgress) {
            releaseRoom();      // nothing in progress holds room between passes (idle connections must not fill the queue)
        }
        boolean busy = !closed && (carried > 0 || inProgress);
        if (!busy) {
            budget.releaseOverdraft(connection);
            overdrawn = false;
        }
        setWaiting(!closed && refusal == Refusal.BUDGET && carried > 0);
    }

    private void setWaiting(boolean waits) {
        if (waits != waitingForRoom) {
            waitingForRoom = waits;
            budget.waiting(connection, waits);
        }
    }

    private void turnBegins(long now) {
        windowStart = now;
        receivedInWindow = 0;
    }

    /**
     * The timer's look: an overdraft holder that received too little in the last second while
     * others wait gives the overdraft up (and its message fails if it holds memory past the limit);
     * a connection stopped for room, or by the server's pause, may try again once it can.
     * {@code readingPeer}: the socket is read now, or is not read for the peer's or the
     * application's sake (the peer does not read ours, the application paused it); time the server
     * itself was not reading it (input in hand waiting for room, all reading suspended) is never the
     * sender's slowness, so the second is counted again from when it is read once more.
     */
    Verdict check(long now, boolean readingPeer) {
        if (!readingPeer) {
            turnBegins(now);
        }
        if (now - windowStart > PROGRESS_WINDOW_NANOS) {
            boolean slow = receivedInWindow * 1e9 / (now - windowStart) < MIN_PROGRESS_BYTES;
            turnBegins(now);
            if (slow && holdsStalledPartial() && budget.othersWait(connection)) {
                return Verdict.STALLED;
            }
            if (slow && budget.holdsOverdraft(connection) && budget.othersWait(connection)) {
                budget.releaseOverdraft(connection);
                if (overdrawn) {
                    return Verdict.STALLED;
                }
                setWaiting(false);      // to the back of the line
                setWaiting(refusal == Refusal.BUDGET && carriedBudgeted > 0);
            }
        }
        if (refusal == Refusal.BUDGET && (budget.roomToResume() || tryOverdraft(now))) {
            return Verdict.RETRY;
        }
        return refusal == Refusal.PAUSED && !server.readingSuspended() ? Verdict.RETRY : Verdict.NONE;
    }

    /**
     * A message in progress that holds budget, readable (not itself waiting for room) and without
     * the overdraft: sent this slowly while others wait, it holds their room (60 connections
     * trickling empty frames into 1 MB messages kept every larger message out for good).
     */
    private boolean holdsStalledPartial() {
        return budgeted > MIN_PROGRESS_BYTES && refusal != Refusal.BUDGET && !budget.holdsOverdraft(connection);
    }

    private boolean tryOverdraft(long now) {
        boolean held = budget.holdsOverdraft(connection);
        if (budget.tryOverdraft(connection)) {
            if (!held) {
                turnBegins(now);
            }
            return true;
        }
        return false;
    }
}
