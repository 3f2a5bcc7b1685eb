package wsjava.cli;

import java.util.Arrays;
import java.util.List;
import wsjava.Version;
import wsjava.mask.Masker;

/** {@code ./wsjava <command>}: the entry point of the library jar. */
public final class Main {

    /** The commands, the launcher's included, for suggesting the nearest to a mistyped one. */
    private static final List<String> COMMANDS = List.of("serve", "connect", "info", "test", "verify", "fuzz", "wljs", "wl-reference",
            "bench", "--version", "--help");

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
            case "connect":
                System.exit(ConnectCommand.run(rest, System.in, System.out, System.err));
                break;
            case "--version":
            case "version":
                System.out.println("WSJava " + Version.VERSION);
                break;
            case "--help":
            case "-h":
            case "help":
                System.out.print(HelpText.of("main"));
                break;
            default:
                String nearest = NearestName.of(command, COMMANDS);
                System.err.println("unknown command " + command + (nearest == null ? "" : " (did you mean " + nearest + "?)"));
                System.err.println("see ./wsjava --help");
                System.exit(2);
        }
    }
}
