package wsjava.link;

import java.util.Arrays;
import wsjava.mask.Masker;

/** {@link WSJavaLink#benchmarkMaskNanos}'s work: masking timed inside the JVM, with no transfer. */
final class MaskTiming {

    private MaskTiming() {
    }

    /** Median nanoseconds to mask {@code size} bytes in place, over {@code repeats} timed calls after a warm-up. */
    static long medianNanos(int key, int size, int repeats) {
        byte[] data = new byte[size];
        new java.util.Random(size).nextBytes(data);
        for (int i = 0; i < 2_000; i++) {
            Masker.mask(data, 0, Math.min(size, 4096), key, 0);
        }
        long[] times = new long[Math.max(1, repeats)];
        for (int i = 0; i < times.length; i++) {
            long t = System.nanoTime();
            Masker.mask(data, 0, size, key, 0);
            times[i] = System.nanoTime() - t;
        }
        Arrays.sort(times);
        return times[times.length / 2];
    }
}
