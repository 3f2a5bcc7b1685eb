package wsjava.cli;

import java.util.Arrays;
import java.util.List;
import wsjava.Version;
import wsjava.mask.Masker;

/** {@code ./wsjava <command>}: the entry point of the library jar. */
public final class Main {

    private Main() {
    }

    public static void main(String[] argv) throws Exception {
        List<String> args = Arrays.asList(argv);
        String command = args.isEmpty() ? "--help" : args.get(0);
        List<String> rest = args.subList(Math.min(1, args.size()), args.size());
        switch (command) {
            case "serve":
                System.exit(ServeCommand.run(rest));
                break;
            case "info":
                System.out.println("WSJava " + Version.VERSION + ", Java " + System.getProperty("java.version")
                        + ", masking kernel: " + Masker.implementation());
                break;
            case "--help":
            case "-h":
            case "help":
                printHelp();
                break;
            default:
                System.err.println("unknown command: " + command);
                printHelp();
                System.exit(2);
        }
    }

    private static void printHelp() {
        System.out.println("usage: ./wsjava <command> [options]");
        System.out.println();
        System.out.println("commands:");
        System.out.println("  serve [options]     run the echo server (./wsjava serve --help lists every option)");
        System.out.println("  info                version, Java version and the active masking kernel (scalar or simd-N)");
        System.out.println("  test                install test tools where possible, then run mvn test (launcher only)");
        System.out.println("  verify              the WL acceptance run on a Wolfram Engine (launcher only; needs wolframscript)");
        System.out.println("  fuzz [seconds] [runs]              Jazzer on every parser, corpus kept (launcher only)");
        System.out.println("  wljs install|uninstall|status      the WSJava extension for WLJS Notebook (launcher only)");
        System.out.println("  wljs check WLJS_DIR                does a WLJS checkout still have every place it hooks into");
        System.out.println("  bench mask [--quick|--smoke]       JMH: masking kernels vs the article's loops, Netty's and arraycopy");
        System.out.println("  bench languages [--smoke]          masking in Java, C, Python, Node and Erlang, outputs cross-checked");
        System.out.println("  bench echo [--quick|--smoke]       end-to-end echo vs Netty, Java-WebSocket, Jetty; idle connections");
        System.out.println("  bench soak [--seconds N] [--smoke] chaos: well-behaved clients among misbehaving ones; loss, RSS");
        System.out.println("  bench idle [N] [PORT]              RSS and live heap of ./wsjava serve holding N idle connections");
        System.out.println("                      (bench commands write a table, CSV and PNG to results/)");
        System.out.println("  --help              this text");
    }
}
