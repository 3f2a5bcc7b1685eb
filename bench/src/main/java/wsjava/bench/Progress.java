package wsjava.bench;

import java.util.Locale;

/**
 * A one-line progress display for long runs, redrawn at most four times a second: printing per
 * message or per iteration would cost more than the work being measured.
 */
public final class Progress {

    private static final long MIN_INTERVAL_NANOS = 250_000_000L;

    private final String label;
    private final long total;
    private final long started = System.nanoTime();
    private long lastPrinted;
    private long done;
    private String detail = "";

    public Progress(String label, long total) {
        this.label = label;
        this.total = total;
    }

    /** Counts {@code n} more units done; prints only if the last print was a while ago. */
    public synchronized void advance(long n) {
        done += n;
        maybePrint(false);
    }

    /** A new detail is printed at once: a run that stops right after it must not show the one before. */
    public synchronized void detail(String text) {
        boolean changed = !text.equals(detail);
        detail = text;
        maybePrint(changed);
    }

    /** Prints {@code text} on a line of its own (kept in a log), then the progress line again. */
    public synchronized void line(String text) {
        System.out.printf(Locale.ROOT, "\r[%s] %s%n", label, text);
        maybePrint(true);
    }

    public synchronized void finish() {
        maybePrint(true);
        System.out.println();
    }

    private void maybePrint(boolean force) {
        long now = System.nanoTime();
        if (!force && now - lastPrinted < MIN_INTERVAL_NANOS) {
            return;
        }
        lastPrinted = now;
        double seconds = (now - started) / 1e9;
        String percent = total > 0 ? String.format(Locale.ROOT, " (%d%%)", 100 * done / total) : "";
        System.out.printf(Locale.ROOT, "\r[%s] %d/%d%s %.0fs %s   ", label, done, total, percent, seconds, detail);
        System.out.flush();
    }
}
