package wsjava.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code --name value} and {@code --name} options, checked against the names a command knows, so
 * that a typo is reported as unknown (with the nearest name) rather than as a missing value.
 * {@code --name=value} works too. Non-option arguments are kept in order.
 */
final class CommandLine {

    final List<String> names = new ArrayList<>();
    final List<String> values = new ArrayList<>();
    final List<String> arguments = new ArrayList<>();
    final boolean help;

    private CommandLine(boolean help) {
        this.help = help;
    }

    /** Reads {@code args}; IllegalArgumentException says what is wrong in a sentence for the user. */
    static CommandLine parse(List<String> args, String[] valueOptions, String[] flags) {
        Set<String> takesValue = new LinkedHashSet<>(Arrays.asList(valueOptions));
        Set<String> isFlag = new LinkedHashSet<>(Arrays.asList(flags));
        if (args.contains("--help") || args.contains("-h")) {
            return new CommandLine(true);
        }
        CommandLine line = new CommandLine(false);
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                line.arguments.add(arg);
                continue;
            }
            int equals = arg.indexOf('=');
            String name = arg.substring(2, equals < 0 ? arg.length() : equals);
            if (isFlag.contains(name) && equals < 0) {
                line.names.add(name);
                line.values.add(null);
            } else if (takesValue.contains(name) || isFlag.contains(name)) {
                if (equals < 0 && i + 1 >= args.size()) {
                    throw new IllegalArgumentException("--" + name + " needs a value");
                }
                line.names.add(name);
                line.values.add(equals < 0 ? args.get(++i) : arg.substring(equals + 1));
            } else {
                Set<String> all = new LinkedHashSet<>(takesValue);
                all.addAll(isFlag);
                String nearest = NearestName.of(name, all);
                throw new IllegalArgumentException("unknown option --" + name + (nearest == null ? "" : " (did you mean --" + nearest + "?)"));
            }
        }
        return line;
    }
}
