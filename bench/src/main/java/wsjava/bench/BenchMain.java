package wsjava.bench;

import java.util.Arrays;
import java.util.List;

/** {@code ./wsjava bench <command>}: the benchmark harnesses, kept out of the library jar. */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] argv) throws Exception {
        List<String> args = Arrays.asList(argv);
        String command = args.isEmpty() ? "--help" : args.get(0);
        List<String> rest = args.subList(Math.min(1, args.size()), args.size());
        switch (command) {
            case "mask":
                MaskBench.run(rest);
                break;
            default:
                System.out.println("usage: ./wsjava bench mask [--quick|--smoke] [--out DIR]");
                System.out.println("  mask   JMH: masking variants (mask6/mask7 style, Netty style, WSJava scalar/SIMD, arraycopy)");
                System.out.println("         --quick about a minute; --smoke a few seconds (checks the harness only)");
                System.exit("--help".equals(command) ? 0 : 2);
        }
    }

    static String option(List<String> args, String name, String fallback) {
        int i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args.get(i + 1) : fallback;
    }
}
