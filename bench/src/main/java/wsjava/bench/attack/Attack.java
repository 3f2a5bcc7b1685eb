package wsjava.bench.attack;

import java.util.ArrayList;
import java.util.List;

/**
 * One attack of the suite, bounded in connections, bytes and time. {@link #launch} returns once the
 * attack is at its worst (its connections still open, holding whatever the server keeps for them),
 * so the suite measures the server then; {@link #close} ends it. {@link #check} states the bounds the
 * README promises for this attack, as sentences for those that do not hold.
 */
abstract class Attack implements AutoCloseable {

    static final long MIB = 1024 * 1024;

    /** How large a run is: {@code smoke} for CI (a few seconds each), else the full reproducer. */
    static final class Scale {
        final boolean smoke;

        Scale(boolean smoke) {
            this.smoke = smoke;
        }

        int count(int full, int small) {
            return smoke ? small : full;
        }

        long millis(long full, long small) {
            return smoke ? small : full;
        }
    }

    /** A short name for tables and the {@code --only} option. */
    abstract String name();

    /** What it does, in a sentence with its numbers. */
    abstract String description(Scale scale);

    /** {@code echo} for {@code ./wsjava serve}, {@code events} for a server as the WL paclet runs it. */
    String mode() {
        return "echo";
    }

    /** Whether the attacked server speaks TLS (then the bystander is a wss client, from another address). */
    boolean tls() {
        return false;
    }

    /** Options the attacked server runs with beyond its defaults. */
    List<String> serverOptions(Scale scale) {
        return List.of();
    }

    /** Starts what the attacked server needs beside it (a Redis), before {@link #serverOptions}; undone by {@link #release}. */
    void prepare() throws Exception {
    }

    /** Stops what {@link #prepare} started; called once the server is gone, whatever happened. */
    void release() {
    }

    abstract void launch(ServerUnderTest server, Scale scale) throws Exception;

    /**
     * Ends traffic the attack keeps up after {@link #launch} returned and takes what it observed,
     * while the bystander still runs and before {@link #bytesSent} and {@link #detail} are read.
     */
    void finish() {
    }

    /** Bytes the attack wrote to the server. */
    abstract long bytesSent();

    /** Message bytes (inflated) the attack made the server deliver to a WL-style kernel; 0 for echo attacks. */
    long bytesForTheKernel() {
        return 0;
    }

    /** What the attack itself observed (close codes, delivery times), for the table. */
    String detail() {
        return "";
    }

    /** The bounds for this attack beyond the ones every attack has (alive, serves afterwards). */
    List<String> check(AttackRow row, Scale scale) {
        return new ArrayList<>();
    }

    @Override
    public abstract void close();
}
