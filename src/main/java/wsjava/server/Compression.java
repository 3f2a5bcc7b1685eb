package wsjava.server;

/**
 * How the server uses permessage-deflate (RFC 7692), an immutable value. On by default, as in
 * browsers, Python {@code websockets} and Netty: WL expressions sent as text compress well.
 * Messages shorter than the threshold go uncompressed (the default, 1 KiB, is Node {@code ws}'s).
 * With context takeover (the default) each direction keeps a zlib stream for the connection's
 * life, except that a connection's compressor is freed once it has sent nothing compressed for
 * {@link #idleReleaseMillis()} (its next message starts a new context, which every receiver can
 * inflate). Without context takeover zlib memory is held only while a message is compressed or
 * inflated.
 */
public final class Compression {

    /** permessage-deflate on, level 6 (zlib's default), 1 KiB threshold, context takeover allowed. */
    public static final Compression DEFAULT = new Compression(true, 6, 1024, true, 10_000);

    /** Offers are declined; no message is compressed. */
    public static final Compression OFF = new Compression(false, 6, 1024, true, 10_000);

    private final boolean enabled;
    private final int level;
    private final int thresholdBytes;
    private final boolean contextTakeover;
    private final long idleReleaseMillis;

    private Compression(boolean enabled, int level, int thresholdBytes, boolean contextTakeover, long idleReleaseMillis) {
        if (level < 0 || level > 9) {
            throw new IllegalArgumentException("compression level must be 0 to 9, was " + level);
        }
        if (thresholdBytes < 0) {
            throw new IllegalArgumentException("compression threshold must not be negative, was " + thresholdBytes);
        }
        if (idleReleaseMillis < 0) {
            throw new IllegalArgumentException("idleReleaseMillis must not be negative, was " + idleReleaseMillis);
        }
        this.idleReleaseMillis = idleReleaseMillis;
        this.enabled = enabled;
        this.level = level;
        this.thresholdBytes = thresholdBytes;
        this.contextTakeover = contextTakeover;
    }

    public boolean enabled() { return enabled; }
    public int level() { return level; }
    public int thresholdBytes() { return thresholdBytes; }
    public boolean contextTakeover() { return contextTakeover; }
    public long idleReleaseMillis() { return idleReleaseMillis; }

    public Compression enabled(boolean value) { return new Compression(value, level, thresholdBytes, contextTakeover, idleReleaseMillis); }
    /** 1 (fastest) to 9 (smallest); 0 stores. */
    public Compression level(int value) { return new Compression(enabled, value, thresholdBytes, contextTakeover, idleReleaseMillis); }
    /** Messages shorter than this many bytes are sent uncompressed. */
    public Compression thresholdBytes(int value) { return new Compression(enabled, level, value, contextTakeover, idleReleaseMillis); }
    /** False asks clients for no context takeover both ways: less memory, less compression of similar messages. */
    public Compression contextTakeover(boolean value) { return new Compression(enabled, level, thresholdBytes, value, idleReleaseMillis); }
    /** A connection's compressor is freed after this long without a compressed message (default 10 s). */
    public Compression idleReleaseMillis(long value) { return new Compression(enabled, level, thresholdBytes, contextTakeover, value); }

    @Override
    public boolean equals(Object o) {
        return o instanceof Compression && ((Compression) o).enabled == enabled && ((Compression) o).level == level
                && ((Compression) o).thresholdBytes == thresholdBytes && ((Compression) o).contextTakeover == contextTakeover
                && ((Compression) o).idleReleaseMillis == idleReleaseMillis;
    }

    @Override
    public int hashCode() {
        return (enabled ? 1 : 0) + 2 * level + 31 * thresholdBytes + (contextTakeover ? 1 << 30 : 0) + 97 * Long.hashCode(idleReleaseMillis);
    }

    @Override
    public String toString() {
        return enabled ? "permessage-deflate level " + level + ", threshold " + thresholdBytes + " B, context takeover "
                + (contextTakeover ? "allowed" : "refused") : "off";
    }
}
