package wsjava.client;

import java.util.Collections;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import wsjava.protocol.CloseCodes;
import wsjava.server.WebSocketConnection;

/**
 * When and how often a {@link ReconnectingClient} connects again. After an abnormal close, or a
 * failed attempt, it waits {@code initialDelayMillis} doubled per attempt up to
 * {@code maxDelayMillis}, each delay jittered down by up to half (so that clients dropped
 * together do not come back together), and gives up after {@code maxAttempts} attempts in a row
 * (0: never). Abnormal means any close code but 1000, unless {@link #abnormalCodes} names them;
 * the application's own close always ends the client. Defaults: 500 ms, 30 s, unlimited.
 */
public final class ReconnectPolicy {

    private long initialDelayMillis = 500;
    private long maxDelayMillis = 30_000;
    private int maxAttempts;
    private long stableAfterMillis = 5_000;
    private Set<Integer> abnormalCodes;
    private Consumer<WebSocketConnection> onEveryOpen = c -> { };

    public long initialDelayMillis() { return initialDelayMillis; }
    public long maxDelayMillis() { return maxDelayMillis; }
    public int maxAttempts() { return maxAttempts; }
    public long stableAfterMillis() { return stableAfterMillis; }
    /** The codes that reconnect, or null for every code but 1000. */
    public Set<Integer> abnormalCodes() { return abnormalCodes == null ? null : Collections.unmodifiableSet(abnormalCodes); }

    /** The first delay after a drop (at least 1 ms). */
    public ReconnectPolicy initialDelayMillis(long value) {
        if (value < 1) {
            throw new IllegalArgumentException("initialDelayMillis must be positive, was " + value);
        }
        initialDelayMillis = value;
        maxDelayMillis = Math.max(maxDelayMillis, value);
        return this;
    }

    /** The longest delay, whatever the attempt (at least the initial delay). */
    public ReconnectPolicy maxDelayMillis(long value) {
        if (value < initialDelayMillis) {
            throw new IllegalArgumentException("maxDelayMillis must be at least initialDelayMillis (" + initialDelayMillis + "), was " + value);
        }
        maxDelayMillis = value;
        return this;
    }

    /** Attempts in a row before giving up; 0 never gives up. */
    public ReconnectPolicy maxAttempts(int value) {
        if (value < 0) {
            throw new IllegalArgumentException("maxAttempts must not be negative, was " + value);
        }
        maxAttempts = value;
        return this;
    }

    /**
     * How long a connection must stay open to count as a success (default 5 s): only then do the
     * attempts start again from the first, so a server that accepts and drops at once meets a
     * growing delay and {@link #maxAttempts}, not a reconnect every initial delay for ever.
     */
    public ReconnectPolicy stableAfterMillis(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("stableAfterMillis must not be negative, was " + value);
        }
        stableAfterMillis = value;
        return this;
    }

    /** Only these close codes reconnect (1006 is the one for a connection lost without a close frame). */
    public ReconnectPolicy abnormalCodes(Set<Integer> codes) {
        abnormalCodes = new TreeSet<>(codes);
        return this;
    }

    /**
     * Runs on every open, the first and each reopen, before any message is read and before the
     * listener hears of it: the place to send a subscription again. It runs on the thread that
     * opened the connection; if it throws, the client closes with 1011 and ends.
     */
    public ReconnectPolicy onEveryOpen(Consumer<WebSocketConnection> hook) {
        onEveryOpen = hook;
        return this;
    }

    Consumer<WebSocketConnection> openHook() {
        return onEveryOpen;
    }

    /** Whether a close with this code (not the application's own) reconnects. */
    boolean reconnectsAfter(int code) {
        return abnormalCodes == null ? code != CloseCodes.NORMAL : abnormalCodes.contains(code);
    }

    /** Whether attempt number {@code attempt} (1 for the first after a drop) may be made. */
    boolean mayTry(int attempt) {
        return maxAttempts == 0 || attempt <= maxAttempts;
    }

    /** The delay before attempt {@code attempt}: the doubled delay, capped, then jittered into its upper half. */
    long delayMillis(int attempt, Random random) {
        long base = initialDelayMillis;
        for (int i = 1; i < attempt && base < maxDelayMillis; i++) {
            base *= 2;
        }
        base = Math.min(base, maxDelayMillis);
        return base - (long) (random.nextDouble() * (base / 2));
    }

    ReconnectPolicy copy() {
        ReconnectPolicy p = new ReconnectPolicy();
        p.initialDelayMillis = initialDelayMillis;
        p.maxDelayMillis = maxDelayMillis;
        p.maxAttempts = maxAttempts;
        p.stableAfterMillis = stableAfterMillis;
        p.abnormalCodes = abnormalCodes == null ? null : new TreeSet<>(abnormalCodes);
        p.onEveryOpen = onEveryOpen;
        return p;
    }
}
