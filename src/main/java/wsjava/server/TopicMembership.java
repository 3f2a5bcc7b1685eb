package wsjava.server;

import java.util.HashSet;
import java.util.Set;

/**
 * The topics one connection is subscribed to, kept in step with the server's {@link TopicIndex}
 * under this object's lock. At most {@code limit} of them, so an application that subscribes on
 * a client's request cannot be made to hold unbounded topics, and at most its share of the topic
 * budget ({@link TopicIndex#connectionShare()}), so that no few connections can take the budget
 * whole. Once the connection has closed it leaves every topic and joins none again.
 */
final class TopicMembership {

    /** The longest topic name, in chars: names are held in memory for as long as anyone subscribes. */
    static final int MAX_TOPIC_LENGTH = 256;

    private final ConnectionHandle connection;
    private final TopicIndex index;
    private final int limit;
    private final long share;
    /** What this connection's subscriptions are charged against its share. */
    private long charged;
    /** Made at the first subscription: most connections never subscribe. */
    private Set<String> names;
    private boolean left;

    TopicMembership(ConnectionHandle connection, TopicIndex index, int limit) {
        this.connection = connection;
        this.index = index;
        this.limit = limit;
        this.share = index.connectionShare();
    }

    static void checkName(String topic) {
        if (topic == null || topic.isEmpty() || topic.length() > MAX_TOPIC_LENGTH) {
            throw new IllegalArgumentException("a topic is 1 to " + MAX_TOPIC_LENGTH + " characters, not "
                    + (topic == null ? "null" : topic.length() + " characters"));
        }
    }

    /**
     * True when the connection is subscribed afterwards; false when it is not open, at its limit of
     * topics or its share of the budget, or the server's topics hold their budget.
     */
    synchronized boolean subscribe(String topic) {
        checkName(topic);
        if (left || !connection.isOpen()) {
            return false;
        }
        if (names != null && names.contains(topic)) {
            return true;
        }
        long charge = TopicIndex.chargeOf(topic);
        if (names != null && names.size() >= limit || charged + charge > share || index.full()) {
            return false;
        }
        if (names == null) {
            names = new HashSet<>(4);
            index.membershipBytes(TopicIndex.MEMBERSHIP_BYTES);
        }
        names.add(index.add(topic, connection));
        charged += charge;
        return true;
    }

    /** True when the connection was subscribed. */
    synchronized boolean unsubscribe(String topic) {
        checkName(topic);
        if (names == null || !names.remove(topic)) {
            return false;
        }
        index.remove(topic, connection);
        charged -= TopicIndex.chargeOf(topic);
        return true;
    }

    synchronized Set<String> topics() {
        return names == null ? Set.of() : Set.copyOf(names);
    }

    /** The connection closed: it leaves every topic, and later subscriptions are refused. */
    synchronized void leaveAll() {
        left = true;
        if (names == null) {
            return;
        }
        for (String topic : names) {
            index.remove(topic, connection);
        }
        names = null;
        charged = 0;
        index.membershipBytes(-TopicIndex.MEMBERSHIP_BYTES);
    }
}
