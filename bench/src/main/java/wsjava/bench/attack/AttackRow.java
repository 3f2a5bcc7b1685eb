package wsjava.bench.attack;

import java.util.ArrayList;
import java.util.List;
import wsjava.bench.Report;

/** What the suite measured for one attack on one heap setting. */
final class AttackRow {

    String attack;
    String heap;
    long heapMax;
    long heapBefore;
    /** -1 until measured: an attack that could not run has none. */
    long heapUnderAttack = -1;
    /** What the server's inbound budget counted then (-1: not known). */
    long inboundBuffered = -1;
    long rssBefore;
    long rssUnderAttack = -1;
    long rssAfter = -1;
    double bystanderP99Millis = Double.NaN;
    int bystanderRoundTrips;
    int bystanderFailures;
    boolean alive;
    boolean servedAfterwards;
    /** How long after the attack a fresh client was served, or how long it was tried for. */
    double servedAfterSeconds;
    long ioThreadDeaths;
    long outOfMemory;
    long bytesSent;
    double serverCpuSeconds;
    double attackerCpuSeconds;
    double seconds;
    String detail = "";
    final List<String> violations = new ArrayList<>();

    /** Heap the attack made the server hold, after a full GC (0 when it fell). */
    long heapHeld() {
        return heapUnderAttack < 0 ? -1 : Math.max(0, heapUnderAttack - heapBefore);
    }

    /** Bytes of heap held per byte the attacker sent. */
    double heldPerByteSent() {
        return bytesSent == 0 || heapUnderAttack < 0 ? Double.NaN : (double) heapHeld() / bytesSent;
    }

    /** Server CPU seconds per MB the attacker sent. */
    double serverCpuPerMb() {
        return bytesSent == 0 ? Double.NaN : serverCpuSeconds / (bytesSent / 1e6);
    }

    boolean passed() {
        return violations.isEmpty();
    }

    static List<String> columns() {
        return List.of("attack", "heap", "sent (MB)", "server heap after GC (MiB)", "inbound budget used (MiB)", "held / byte sent", "server RSS (MiB)",
                "RSS after (MiB)", "bystander p99 (ms)", "bystander failures", "server CPU (s)", "attacker CPU (s)",
                "server CPU s/MB", "serves a new client", "detail", "verdict");
    }

    List<String> cells() {
        return List.of(attack, heap, Report.fixed(bytesSent / 1e6, 2),
                heapUnderAttack < 0 ? "gone" : Report.fixed(heapUnderAttack / (double) Attack.MIB, 1),
                inboundBuffered < 0 ? "n/a" : Report.fixed(inboundBuffered / (double) Attack.MIB, 1),
                Report.fixed(heldPerByteSent(), 4), mib(rssUnderAttack), mib(rssAfter),
                Report.fixed(bystanderP99Millis, 1), bystanderFailures + " of " + bystanderRoundTrips,
                Report.fixed(serverCpuSeconds, 2), Report.fixed(attackerCpuSeconds, 2), Report.fixed(serverCpuPerMb(), 3),
                (servedAfterwards ? "yes, " : "no, tried ") + Report.fixed(servedAfterSeconds, 1) + " s", detail, passed() ? "holds" : "FAILS: " + String.join("; ", violations));
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "gone" : Report.fixed(bytes / (double) Attack.MIB, 1);
    }
}
