package wsjava.bench.attack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Waits, for a while at most, until the machine has a core to spare: a bystander's latency says
 * something about the server only when the other test JVMs (the bench runs three side by side on
 * two cores) are not taking every core at the time.
 */
final class QuietMachine {

    /** The share of the machine's CPU time that must be idle over one second: one core of two. */
    static final double IDLE_SHARE = 0.5;

    private QuietMachine() {
    }

    /**
     * Returns the idle share of the last second once it reaches {@link #IDLE_SHARE}, or when
     * {@code maxSeconds} have passed; it looks for one second at least.
     */
    static double await(int maxSeconds) throws IOException, InterruptedException {
        double idle;
        int second = 0;
        do {
            long[] before = cpuTimes();
            Thread.sleep(1_000);
            long[] after = cpuTimes();
            idle = (double) (after[0] - before[0]) / Math.max(1, after[1] - before[1]);
        } while (idle < IDLE_SHARE && ++second < maxSeconds);
        return idle;
    }

    /** Idle (with I/O wait) and total CPU time of the whole machine so far, in clock ticks, from /proc/stat. */
    private static long[] cpuTimes() throws IOException {
        String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < fields.length && i <= 8; i++) {       // user nice system idle iowait irq softirq steal; guest is inside user
            total += Long.parseLong(fields[i]);
        }
        return new long[] {Long.parseLong(fields[4]) + Long.parseLong(fields[5]), total};
    }
}
