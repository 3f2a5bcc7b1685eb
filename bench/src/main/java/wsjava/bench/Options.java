package wsjava.bench;

import java.util.List;

/**
 * The benches' command-line options, in a class of its own: every bench reads its options here,
 * and only {@link BenchMain} knows the benches, so nothing imports its way back to the entry point.
 */
public final class Options {

    private Options() {
    }

    /** The word after {@code name} in {@code args}, or {@code fallback} when the option is absent or last. */
    public static String value(List<String> args, String name, String fallback) {
        int i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args.get(i + 1) : fallback;
    }
}
