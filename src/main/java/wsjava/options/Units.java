package wsjava.options;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes and times as options give them: {@code 16MiB}, {@code 512KiB}, {@code 4096} (bytes);
 * {@code 30s}, {@code 500ms}, {@code 2m}, {@code 10000} (milliseconds). Binary units only, so
 * {@code KB} is refused rather than guessed.
 */
public final class Units {

    private static final Pattern QUANTITY = Pattern.compile("(\\d+)\\s*([a-zA-Z]*)");
    private static final String[] SIZE_UNITS = {"GiB", "MiB", "KiB"};
    private static final long[] SIZE_FACTORS = {1L << 30, 1L << 20, 1L << 10};

    private Units() {
    }

    /** Bytes from a size, else IllegalArgumentException naming the option. */
    public static long bytes(String name, String value) {
        return scaled(name, value, "a size such as 16MiB, 512KiB or 4096 (bytes)", unit -> {
            switch (unit) {
                case "": case "b": return 1L;
                case "kib": return 1L << 10;
                case "mib": return 1L << 20;
                case "gib": return 1L << 30;
                default: return -1L;
            }
        });
    }

    /** Milliseconds from a time, else IllegalArgumentException naming the option. */
    public static long millis(String name, String value) {
        return scaled(name, value, "a time such as 30s, 500ms or 2m (a bare number is milliseconds)", unit -> {
            switch (unit) {
                case "": case "ms": return 1L;
                case "s": return 1_000L;
                case "m": case "min": return 60_000L;
                case "h": return 3_600_000L;
                default: return -1L;
            }
        });
    }

    /** {@link #bytes} for a setting held in an int. */
    public static int bytesInt(String name, String value) {
        return toInt(name, value, bytes(name, value));
    }

    /** {@link #millis} for a setting held in an int. */
    public static int millisInt(String name, String value) {
        return toInt(name, value, millis(name, value));
    }

    /** A size as help and messages show it: exact in GiB, MiB or (below 1 MiB) KiB, else about so many MiB. */
    public static String formatBytes(long bytes) {
        for (int i = 0; i < SIZE_UNITS.length; i++) {
            boolean coarserFits = i > 0 && bytes >= SIZE_FACTORS[i - 1];
            if (bytes >= SIZE_FACTORS[i] && bytes % SIZE_FACTORS[i] == 0 && (i < 2 || !coarserFits)) {
                return bytes / SIZE_FACTORS[i] + SIZE_UNITS[i];
            }
        }
        if (bytes >= SIZE_FACTORS[1]) {
            return String.format(Locale.ROOT, "%.1fMiB", bytes / (double) SIZE_FACTORS[1]);
        }
        return bytes + "B";
    }

    /** A time as help and messages show it: 30s, 500ms, 2m. */
    public static String formatMillis(long millis) {
        if (millis >= 60_000 && millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis >= 1_000 && millis % 1_000 == 0) {
            return millis / 1_000 + "s";
        }
        return millis + "ms";
    }

    private interface UnitFactor {
        long of(String lowerCaseUnit);
    }

    private static long scaled(String name, String value, String expected, UnitFactor factors) {
        Matcher m = value == null ? null : QUANTITY.matcher(value.trim());
        long factor = m != null && m.matches() ? factors.of(m.group(2).toLowerCase(Locale.ROOT)) : -1;
        if (factor < 0) {
            throw new IllegalArgumentException(name + " needs " + expected + ", got " + value);
        }
        try {
            return Math.multiplyExact(Long.parseLong(m.group(1)), factor);
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException(name + " is too large: " + value);
        }
    }

    private static int toInt(String name, String value, long amount) {
        if (amount > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + " is too large: " + value + " (at most " + Integer.MAX_VALUE + ")");
        }
        return (int) amount;
    }
}
