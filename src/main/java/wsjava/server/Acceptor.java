package wsjava.server;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.List;
import wsjava.protocol.HttpResponses;

/**
 * The listening socket, served by the first I/O thread: accepts pending connections, a bounded
 * number per pass, and hands each to an I/O thread in turn. When accepting fails (file descriptors run out, say) the pending
 * connection stays in the kernel's queue and the loop would report it again at once, a busy
 * loop at 100% CPU: so accepting pauses, for 50 ms doubling up to 1 s, and it says so once (at
 * most once a minute, however often it flaps at the limit) and again when it recovers.
 */
final class Acceptor {

    private static final long FIRST_PAUSE_NANOS = 50_000_000L;
    private static final long LONGEST_PAUSE_NANOS = 1_000_000_000L;
    /** A server that flaps at its descriptor limit says so at most once a minute. */
    private static final long WARNING_INTERVAL_NANOS = 60_000_000_000L;

    /**
     * Accepting until none was pending kept the first I/O thread from its own connections for as long
     * as a burst lasted: 1,754 accepts in one call took 2 s on a busy 2-core machine.
     */
    static final int ACCEPTS_PER_PASS = 64;

    private final WebSocketServer server;
    private final ServerLifecycle lifecycle;
    private final ListeningSocket listening;
    private final List<IoLoop> loops;
    private final RefusalLog refusals = new RefusalLog();
    private int nextLoop;
    private long pauseNanos;
    private long resumeAtNanos;
    private boolean paused;
    private long failedAccepts;
    private long lastWarningNanos;
    private boolean warned;

    Acceptor(WebSocketServer server, ServerLifecycle lifecycle, ListeningSocket listening, List<IoLoop> loops) {
        this.server = server;
        this.lifecycle = lifecycle;
        this.listening = listening;
        this.loops = loops;
    }

    ListeningSocket listening() {
        return listening;
    }

    /**
     * Accepts pending connections, at most {@link #ACCEPTS_PER_PASS}: the rest wait for the next pass
     * (the loop reports the listener again at once), after this thread's connections had theirs.
     */
    void onAcceptable() {
        for (int i = 0; i < ACCEPTS_PER_PASS; i++) {
            ConnectionSocket accepted;
            try {
                accepted = listening.accept();
            } catch (IOException e) {
                pause(e);
                return;
            }
            if (accepted == null) {
                return;
            }
            recovered();
            hand(accepted);
        }
    }

    private void hand(ConnectionSocket accepted) {
        if (!lifecycle.reserveSocket()) {
            refusals.refused("full", unreported -> "refused a connection: the server is at its connection limit (503);"
                    + " --max-connections raises it" + RefusalLog.more(unreported));
            refuse(accepted);
            return;
        }
        loops.get(Math.floorMod(nextLoop++, loops.size())).adopt(accepted);   // never negative after 2^31 accepts
    }

    private void pause(IOException e) {
        failedAccepts++;
        long now = System.nanoTime();
        if (!warned && (lastWarningNanos == 0 || now - lastWarningNanos > WARNING_INTERVAL_NANOS)) {
            warned = true;
            lastWarningNanos = now;
            ServerLog.log(Level.WARNING, "accepting connections failed (" + e.getMessage() + "); pausing accepts and retrying", null);
        }
        pauseNanos = pauseNanos == 0 ? FIRST_PAUSE_NANOS : Math.min(LONGEST_PAUSE_NANOS, 2 * pauseNanos);
        resumeAtNanos = now + pauseNanos;
        paused = true;
        listening.watchAccepts(false);
    }

    private void recovered() {
        if (pauseNanos != 0) {
            pauseNanos = 0;
            if (warned) {
                warned = false;
                ServerLog.log(Level.INFO, "accepting connections again after " + failedAccepts + " failed attempts", null);
                failedAccepts = 0;
            }
        }
    }

    /** Called by the I/O thread's timer: pushes out stale handshakes over their share, ends a pause that is over. */
    void onTimer(long now) {
        server.limits().handshakes.enforce(now).forEach(ServerConnection::pushOutIfWaiting);
        if (paused && now - resumeAtNanos >= 0) {
            paused = false;
            listening.watchAccepts(true);
        }
    }

    void close() {
        listening.close();
    }

    private static void refuse(ConnectionSocket socket) {
        try {
            socket.write(ByteBuffer.wrap(HttpResponses.plain(503, "server is at its connection limit\n", Collections.emptyMap())));
        } catch (IOException ignored) {
            // it is being refused anyway
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(ConnectionSocket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to report
        }
    }
}
