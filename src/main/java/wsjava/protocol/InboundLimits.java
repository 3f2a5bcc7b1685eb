package wsjava.protocol;

/**
 * What a {@link MessageAssembler} asks before it holds or does more: a server answers from its
 * budgets (memory across connections, work per loop pass, a pause of all reading). An answer of no
 * stops the assembler where it is, without consuming the input it could not take
 * ({@link MessageAssembler#acceptsInput()} turns false); the caller keeps that input and feeds it
 * again after {@link MessageAssembler#resume()}. Nothing is lost or reordered by a stop.
 */
public interface InboundLimits {

    /** No limits: every request is granted (a client, a test, a one-shot decoder). */
    InboundLimits NONE = new InboundLimits() {
        @Override public boolean mayGrow(long bytes) { return true; }
        @Override public boolean mayInflate(int bytes) { return true; }
        @Override public boolean frameDone() { return true; }
        @Override public boolean mayStartMessage() { return true; }
        @Override public boolean mayKeep(int bytes) { return true; }
    };

    /** May the message buffer grow by {@code bytes}? */
    boolean mayGrow(long bytes);

    /** May up to {@code bytes} more be inflated now (work within this pass)? */
    boolean mayInflate(int bytes);

    /** A frame was completed; false when this pass's work is used up. */
    boolean frameDone();

    /**
     * May the message grow by {@code bytes} to complete in the piece at hand? Such growth is never
     * refused for memory (the message is delivered at once), only by a consumer that has no room
     * for it yet (a queue drained elsewhere); the piece then waits for {@link MessageAssembler#resume()}.
     */
    default boolean mayComplete(long bytes) {
        return true;
    }

    /** May a new message (or a control frame between messages) start now? */
    boolean mayStartMessage();

    /**
     * May a small buffer of {@code bytes} be kept between messages, for the next one? Kept, it is
     * held memory (a completed message's last growth is never asked for), so a server says no while
     * its budget is tight: idle connections must not hold the room that messages need.
     */
    boolean mayKeep(int bytes);
}
