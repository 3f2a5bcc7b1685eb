package wsjava.server;

import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Tells the operator why clients are turned away (a browser shows a 403 to nobody), without
 * letting a flood of refusals flood the log: each kind of refusal (one per origin) is logged at
 * most once a minute, with how many more there were since. The kinds remembered are bounded: past
 * {@link #MAX_KINDS}, refusals of new kinds are counted together.
 */
final class RefusalLog {

    static final long INTERVAL_NANOS = 60_000_000_000L;
    static final int MAX_KINDS = 64;
    private static final String OVERFLOW = "\u0000other";

    /** What one refusal says, given how many of its kind went unreported before it. */
    interface Message {
        String say(long unreported);
    }

    private static final class Kind {
        long loggedAt;
        long unreported;
    }

    private final Map<String, Kind> kinds = new HashMap<>();
    private final LongSupplier clock;

    RefusalLog() {
        this(System::nanoTime);
    }

    RefusalLog(LongSupplier clock) {
        this.clock = clock;
    }

    /** Logs a refusal of kind {@code key} unless one of that kind was logged less than a minute ago. */
    void refused(String key, Message message) {
        long unreported;
        synchronized (this) {
            long now = clock.getAsLong();
            Kind kind = kinds.get(key);
            if (kind == null && kinds.size() >= MAX_KINDS) {
                forgetQuietKinds(now);
                if (kinds.size() >= MAX_KINDS) {
                    key = OVERFLOW;
                    kind = kinds.get(key);
                }
            }
            if (kind != null && now - kind.loggedAt < INTERVAL_NANOS) {
                kind.unreported++;
                return;
            }
            if (kind == null) {
                kind = new Kind();
                kinds.put(key, kind);
            }
            unreported = kind.unreported;
            kind.unreported = 0;
            kind.loggedAt = now;
        }
        ServerLog.log(Level.WARNING, key.equals(OVERFLOW) ? "refused upgrades of many kinds; one of them: " + message.say(unreported)
                : message.say(unreported), null);
    }

    private void forgetQuietKinds(long now) {
        for (Iterator<Kind> it = kinds.values().iterator(); it.hasNext();) {
            Kind kind = it.next();
            if (now - kind.loggedAt >= INTERVAL_NANOS && kind.unreported == 0) {
                it.remove();
            }
        }
    }

    /** " (and N more like it in the last minute)", or nothing. */
    static String more(long unreported) {
        return unreported == 0 ? "" : " (and " + unreported + " more like it since the last report)";
    }

    /** Text from a request, bounded and without control characters, as it may go into a log line. */
    static String printable(String text) {
        String shortened = text.length() > 200 ? text.substring(0, 200) + "..." : text;
        return shortened.replaceAll("\\p{Cntrl}", "?");
    }
}
