package wsjava.bench;

import java.util.Arrays;
import java.util.List;

/** {@code ./wsjava bench <command>}: the benchmark harnesses, kept out of the library jar. */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] argv) throws Exception {
        List<String> args = Arrays.asList(argv);
        // A help flag anywhere (`echo --help`) prints help: a benchmark must not start instead.
        String command = args.isEmpty() || args.contains("--help") || args.contains("-h") ? "--help" : args.get(0);
        List<String> rest = args.subList(Math.min(1, args.size()), args.size());
        switch (command) {
            case "mask":
                MaskBench.run(rest);
                break;
            case "mask-direct":
                DirectMaskBench.run(rest);
                break;
            case "echo":
                EchoBench.run(rest);
                break;
            case "languages":
                LanguagesBench.run(rest);
                break;
            case "deflate":
                System.exit(wsjava.bench.deflate.DeflateBench.run(rest) ? 0 : 1);
                break;
            case "tls":
                System.exit(wsjava.bench.tls.TlsEchoBench.run(rest) ? 0 : 1);
                break;
            case "fanout":
                System.exit(wsjava.bench.fanout.FanoutBench.run(rest) ? 0 : 1);
                break;
            case "attack":
                System.exit(wsjava.bench.attack.AttackBench.run(rest).passed() ? 0 : 1);
                break;
            case "soak":
                System.exit(wsjava.bench.soak.SoakBench.run(rest).passed() ? 0 : 1);
                break;
            default:
                if (!"--help".equals(command) && !"-h".equals(command) && !"help".equals(command)) {
                    System.err.println("unknown bench command " + command);
                }
                System.out.print(help());
                System.exit("--help".equals(command) || "-h".equals(command) || "help".equals(command) ? 0 : 2);
        }
    }

    /** The help text, a file the launcher also prints without building the benchmarks. */
    static String help() throws java.io.IOException {
        try (java.io.InputStream in = BenchMain.class.getResourceAsStream("help.txt")) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
