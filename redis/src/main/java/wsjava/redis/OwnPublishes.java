package wsjava.redis;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

/**
 * The ids of this server's publishes that Redis has not handed back yet. Each publish carries an
 * id of 128 random bits, new for every publish; Redis hands a server its own publish back, and that
 * copy is skipped only if its id is one we sent and have not seen back. So a peer of the Redis that
 * copies an id can at most have a message delivered twice; it can no longer hide a message from one
 * server's clients (with one id per server, a forged id did). The publishing thread records ids in
 * the order it sends them, which is the order Redis hands them back on one connection: an id seen
 * back also ends those sent before it (lost with a connection). At most {@link #MAX} are kept.
 */
final class OwnPublishes {

    /** Ids kept at most (publishes in flight); past it, the oldest go, and their copies back would be delivered again. */
    static final int MAX = 1 << 16;

    private final ArrayDeque<ByteBuffer> order = new ArrayDeque<>();
    private final Set<ByteBuffer> ids = new HashSet<>();

    /** The publishing thread is about to send a message with this id (bytes {@code from..from+16} of {@code message}). */
    synchronized void sending(byte[] message, int from) {
        ByteBuffer id = ByteBuffer.wrap(message, from, FanoutMessage.ID_BYTES).slice();
        if (ids.add(id)) {
            order.add(id);
        }
        while (order.size() > MAX) {
            ids.remove(order.poll());
        }
    }

    /** Whether {@code id} is one of ours not yet seen back; if so it (and what was sent before it) is forgotten. */
    synchronized boolean cameBack(byte[] id) {
        ByteBuffer key = ByteBuffer.wrap(id);
        if (!ids.contains(key)) {
            return false;
        }
        ByteBuffer head;
        do {
            head = order.poll();
            ids.remove(head);
        } while (!head.equals(key));
        return true;
    }

    synchronized int size() {
        return order.size();
    }
}
