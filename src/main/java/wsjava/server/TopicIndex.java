package wsjava.server;

import java.util.Collection;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's topics: for each topic, the connections subscribed to it. A publish reads one
 * topic's set, so its cost follows that topic's subscribers, never the server's connections. A
 * topic exists while it has a subscriber; the last one to leave removes it.
 *
 * <p>Memory is counted as it is taken, at costs measured on a 64-bit JVM with compressed
 * references ({@code TopicMemoryTest} checks them against the heap): a subscription is an entry
 * in its topic's set and one in its connection's own set; a topic is its map entry, its set and
 * its name, which is stored once however many connections subscribe to it.
 */
final class TopicIndex {

    /** Both entries of one subscription (a node and its share of the table, in two hash sets). */
    static final long SUBSCRIPTION_BYTES = 80;
    /** A topic: its map entry, its object and its own concurrent set, without the name. */
    static final long TOPIC_BYTES = 216;
    /** The set a connection keeps of its topics, once it has one. */
    static final long MEMBERSHIP_BYTES = 150;

    /** A topic's subscribers, with the one copy of its name that every subscriber's own set shares. */
    private static final class Topic {
        final String name;
        final Set<ConnectionHandle> subscribers = ConcurrentHashMap.newKeySet(4);

        Topic(String name) {
            this.name = name;
        }
    }

    private final ConcurrentHashMap<String, Topic> topics = new ConcurrentHashMap<>();
    private final AtomicLong subscriptions = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final long budgetBytes;

    TopicIndex(long budgetBytes) {
        this.budgetBytes = budgetBytes;
    }

    /** The least share of the budget one connection may hold, however small the budget. */
    static final long MIN_CONNECTION_SHARE = 16 * 1024;
    /** The budget is shared out so that filling it takes at least this many connections, each at its share. */
    static final int SHARES = 512;

    /**
     * What one connection's subscriptions may cost at most, as {@link #chargeOf} counts them: so a
     * few connections cannot take the budget whole and lock every other subscriber out.
     */
    long connectionShare() {
        return Math.max(MIN_CONNECTION_SHARE, budgetBytes / SHARES);
    }

    /**
     * A subscription's charge against its connection's share: what it costs the budget at most, its
     * entries plus the topic it may create (its object and its name). Charging less let topics a
     * connection made fill the budget past the shares: 330 connections took 16 MiB.
     */
    static long chargeOf(String topic) {
        return SUBSCRIPTION_BYTES + TOPIC_BYTES + nameBytes(topic);
    }

    /** Whether topics and subscriptions hold the budget: new subscriptions are refused (one may pass it by its own cost). */
    boolean full() {
        return bytes.get() >= budgetBytes;
    }

    /**
     * Adds {@code connection} to {@code topic}'s subscribers; returns the name as the index keeps
     * it, so that the connection's own set holds that copy rather than its own.
     */
    String add(String topic, ConnectionHandle connection) {
        return topics.compute(topic, (name, t) -> {
            if (t == null) {
                t = new Topic(name);
                bytes.addAndGet(TOPIC_BYTES + nameBytes(name));
            }
            if (t.subscribers.add(connection)) {
                subscriptions.incrementAndGet();
                bytes.addAndGet(SUBSCRIPTION_BYTES);
            }
            return t;
        }).name;
    }

    void remove(String topic, ConnectionHandle connection) {
        topics.computeIfPresent(topic, (name, t) -> {
            if (t.subscribers.remove(connection)) {
                subscriptions.decrementAndGet();
                bytes.addAndGet(-SUBSCRIPTION_BYTES);
            }
            if (!t.subscribers.isEmpty()) {
                return t;
            }
            bytes.addAndGet(-(TOPIC_BYTES + nameBytes(t.name)));
            return null;
        });
    }

    /** The topic's subscribers now (a live view: subscriptions made meanwhile may or may not be seen). */
    Collection<ConnectionHandle> subscribers(String topic) {
        Topic t = topics.get(topic);
        return t == null ? Collections.emptySet() : t.subscribers;
    }

    int topicCount() {
        return topics.size();
    }

    long subscriptionCount() {
        return subscriptions.get();
    }

    /** Heap held by topics and subscriptions, connections' own sets included. */
    long memoryBytes() {
        return bytes.get();
    }

    /** A connection's own set was made or dropped. */
    void membershipBytes(long delta) {
        bytes.addAndGet(delta);
    }

    /** A String's heap: its object and its array, one byte a character when Latin-1, else two. */
    static long nameBytes(String name) {
        boolean latin1 = name.chars().allMatch(c -> c < 256);
        return 24 + 16 + align8((long) name.length() * (latin1 ? 1 : 2));
    }

    private static long align8(long n) {
        return (n + 7) & ~7L;
    }
}
