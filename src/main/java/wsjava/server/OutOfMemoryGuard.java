package wsjava.server;

import java.lang.System.Logger.Level;

/**
 * What an I/O thread does when memory runs out, without needing any to do it: a small reserve is
 * let go first (so what follows can allocate), the connection being served when it happened is
 * shed (its close code 1011 and a prepared reason), and a prepared line is logged. The loop goes
 * on; the reserve is taken again on a later timer pass, once memory allows.
 */
final class OutOfMemoryGuard {

    static final int RESERVE_BYTES = 1024 * 1024;
    /** Prepared now: building a string when memory is gone would fail again. */
    static final String REASON = "server out of memory";
    private static final String LOG_LINE = "out of memory on an I/O thread: the connection being served was closed (1011), the others go on";

    private byte[] reserve = new byte[RESERVE_BYTES];
    private long count;

    /** Handles an OutOfMemoryError met while serving {@code connection} (null: none in particular). */
    void outOfMemory(ServerConnection connection) {
        reserve = null;
        count++;
        if (connection != null) {
            try {
                connection.shed();
            } catch (Throwable again) {   // still no memory: at least the socket must go
                connection.closeQuietly();
            }
        }
        ServerLog.log(Level.WARNING, LOG_LINE, null);
    }

    /** On the timer: takes the reserve again if it was used and memory allows. */
    void replenish() {
        if (reserve == null) {
            try {
                reserve = new byte[RESERVE_BYTES];
            } catch (OutOfMemoryError stillShort) {   // later, then
                reserve = null;
            }
        }
    }

    /** How many times memory ran out on this thread. */
    long count() {
        return count;
    }
}
