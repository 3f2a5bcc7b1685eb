package wsjava.server;

import java.lang.System.Logger.Level;

/**
 * The server's log: one {@link System.Logger} named after {@link WebSocketServer}, so one logging
 * setting covers every class of the server.
 */
final class ServerLog {

    private static final System.Logger LOG = System.getLogger(WebSocketServer.class.getName());

    private ServerLog() {
    }

    /** Makes the logger now (its lookup reads files): logging is needed most when no file can be opened. */
    static boolean ready() {
        return LOG.isLoggable(Level.ERROR);
    }

    /** Logs, and never throws: out of memory or descriptors, logging itself can fail, and must not end a loop. */
    static void log(Level level, String message, Throwable e) {
        try {
            LOG.log(level, message, e);
        } catch (Throwable ignored) {   // nothing better to do with a failure to report a failure
            // dropped
        }
    }
}
