package wsjava.bench.deflate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time a process has used, from /proc (Linux): to show which side of a benchmark was busy. */
public final class ProcessCpu {

    private static final double TICKS_PER_SECOND = 100.0;   // USER_HZ on Linux

    private ProcessCpu() {
    }

    /** User plus system CPU seconds of {@code pid}; -1 where /proc is not there. */
    public static double seconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static double selfSeconds() {
        return seconds(ProcessHandle.current().pid());
    }
}
