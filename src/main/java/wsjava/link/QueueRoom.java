package wsjava.link;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The books of one {@link EventQueue}: what its events hold, what messages in progress reserved for
 * theirs, and what every open connection keeps for its last events (its "Close", and up to two
 * "Error"s). Reservations never pass the limit, with one exception that keeps the queue live: when
 * no event is queued at all and reservations alone fill it, one message at a time may reserve past
 * it (the overdraft), so a message larger than the room left can still complete.
 *
 * <p>A delivered message's event is counted before its reservation is given back (the same bytes
 * twice for a moment, never once too few), so {@link #held} only ever errs high, and what the
 * events themselves hold stays within what was reserved for them.
 */
final class QueueRoom {

    /** The longest close reason or error text an event carries (longer ones are cut). */
    static final int TAIL_TEXT_CHARS = 256;
    /** What an open connection keeps for the events that end it: a "Close" and two "Error"s at most. */
    static final long TAIL_BYTES = 3 * (EventQueue.EVENT_BYTES + HeapCost.string("x".repeat(TAIL_TEXT_CHARS)));
    /** The longest of each "Open" info field (path, query, remote address, Origin, subprotocol). */
    static final int INFO_CHARS = 2048;
    /** What an "Open" event costs at most: its object, five info strings at their cap, the array. */
    static final long OPEN_BYTES = EventQueue.EVENT_BYTES + HeapCost.string("") + HeapCost.array(5)
            + 5 * HeapCost.string("x".repeat(INFO_CHARS));

    private final long limit;
    /** Events, reservations and tails: what the queue may come to hold. */
    private final AtomicLong held = new AtomicLong();
    /** Events only (queued, and the batch the kernel holds). */
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong reserved = new AtomicLong();
    /** The most {@link #events} have been: what the bound is about. */
    private final AtomicLong peak = new AtomicLong();
    private volatile Object overdraft;

    QueueRoom(long limit) {
        this.limit = limit;
    }

    long limit() {
        return limit;
    }

    /** An event was queued ({@code bytes}) or taken by the kernel (negative). */
    void events(long bytes) {
        seen(events.addAndGet(bytes));
        held.addAndGet(bytes);
    }

    /** A connection opened (true) and keeps its tail, or closed (false) and gives it back. */
    void tail(boolean opened) {
        held.addAndGet(opened ? TAIL_BYTES : -TAIL_BYTES);
    }

    private void seen(long now) {
        if (now > peak.get()) {
            peak.accumulateAndGet(now, Math::max);
        }
    }

    boolean tryReserve(Object holder, long bytes) {
        while (true) {
            long now = held.get();
            boolean fits = now + bytes <= limit;
            if (!fits && !takesOverdraft(holder)) {
                return false;
            }
            if (held.compareAndSet(now, now + bytes)) {
                reserved.addAndGet(bytes);
                return true;
            }
        }
    }

    private boolean takesOverdraft(Object holder) {
        if (overdraft == holder) {
            return true;
        }
        synchronized (this) {
            if (overdraft == null && events.get() == 0) {
                overdraft = holder;
                return true;
            }
            return false;
        }
    }

    void release(Object holder, long bytes) {
        reserved.addAndGet(-bytes);
        held.addAndGet(-bytes);
        if (overdraft == holder) {
            overdraft = null;
        }
    }

    /** Room for another connection's "Open" and its tail. */
    boolean mayOpen() {
        return held.get() + OPEN_BYTES + TAIL_BYTES <= limit;
    }

    boolean over() {
        return held.get() > limit;
    }

    /** Whether the kernel has caught up: the events alone are at half the limit or less. */
    boolean drained() {
        return events.get() <= limit / 2;
    }

    long events() {
        return events.get();
    }

    long held() {
        return held.get();
    }

    long reserved() {
        return reserved.get();
    }

    long peak() {
        return peak.get();
    }
}
