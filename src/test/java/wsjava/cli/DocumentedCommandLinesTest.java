package wsjava.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.options.ServerOptions;

/**
 * Every {@code ./wsjava serve} and {@code ./wsjava connect} command line in the README and the
 * guides parses with the commands' own option tables, and every option the server guide names
 * exists: a renamed or mistyped option in a doc fails here, not for a user.
 */
@Timeout(30)
class DocumentedCommandLinesTest {

    private static final Pattern COMMAND = Pattern.compile("\\./wsjava (serve|connect)([^`\\n]*)");
    private static final Pattern OPTION = Pattern.compile("--[a-z][a-z0-9-]*(=\\S*)?");
    private static final Pattern NAMED_OPTION = Pattern.compile("`(--[a-z][a-z0-9-]*)");

    private static String[] serveValueOptions() {
        List<String> all = new ArrayList<>(Arrays.asList(ServerOptions.VALUE_OPTIONS));
        all.addAll(ServeCommand.OWN_OPTIONS);
        return all.toArray(new String[0]);
    }

    /** The command's words up to the end of the shell command (a comment, &, |, ;) or the first word of prose. */
    static List<String> words(String rest) {
        List<String> out = new ArrayList<>();
        String[] tokens = rest.trim().isEmpty() ? new String[0] : rest.trim().split("\\s+");
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i];
            if (t.startsWith("#") || t.equals("&") || t.equals("|") || t.equals(";") || t.startsWith(")")) {
                break;
            }
            if (t.startsWith("-") && !OPTION.matcher(t).matches() && !t.equals("-h")) {
                break;       // "--page: subscribes ...": prose about an option, not a command
            }
            out.add(t.replaceAll("[&;)]+$", ""));
        }
        return out;
    }

    /** The problems of each command line in {@code text}: an option its command does not take. */
    static List<String> problems(String where, String text) {
        List<String> problems = new ArrayList<>();
        Matcher m = COMMAND.matcher(text);
        while (m.find()) {
            List<String> args = words(m.group(2));
            try {
                if (m.group(1).equals("serve")) {
                    CommandLine.parse(args, serveValueOptions(), ServerOptions.FLAGS);
                } else {
                    CommandLine.parse(args, ConnectCommand.VALUE_OPTIONS, ConnectCommand.FLAGS);
                }
            } catch (IllegalArgumentException e) {
                if (e.getMessage().endsWith("needs a value")) {
                    continue;        // prose that names an option: "`./wsjava serve --redis` uses ..."
                }
                problems.add(where + ": ./wsjava " + m.group(1) + " " + String.join(" ", args) + ": " + e.getMessage());
            }
        }
        return problems;
    }

    private static List<Path> documents() throws Exception {
        List<Path> docs = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> walk = Files.list(Path.of("docs"))) {
            docs.addAll(walk.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
        }
        return docs;
    }

    @Test
    void everyDocumentedCommandLineParses() throws Exception {
        List<String> problems = new ArrayList<>();
        int commands = 0;
        for (Path doc : documents()) {
            String text = Files.readString(doc);
            Matcher m = COMMAND.matcher(text);
            while (m.find()) {
                commands++;
            }
            problems.addAll(problems(doc.toString(), text));
        }
        assertTrue(commands >= 10, "the command lines were found: " + commands);
        assertEquals(List.of(), problems);
    }

    @Test
    void everyOptionTheServerGuideNamesExists() throws Exception {
        List<String> known = new ArrayList<>(Arrays.asList(serveValueOptions()));
        known.addAll(Arrays.asList(ServerOptions.FLAGS));
        known.add("help");
        Matcher m = NAMED_OPTION.matcher(Files.readString(Path.of("docs/server.md")));
        List<String> unknown = new ArrayList<>();
        int named = 0;
        while (m.find()) {
            named++;
            if (!known.contains(m.group(1).substring(2))) {
                unknown.add(m.group(1));
            }
        }
        assertTrue(named >= 20, "the options were found: " + named);
        assertEquals(List.of(), unknown, "options docs/server.md names that serve does not take");
    }

    @Test
    void aMistypedOptionInADocIsFound() {
        List<String> found = problems("x.md", "Run `./wsjava serve --prot 8080 &` and then\n    ./wsjava connect --no-deflat ws://127.0.0.1:20580/\n");
        assertEquals(2, found.size(), found.toString());
        assertTrue(found.get(0).contains("unknown option --prot (did you mean --port?)"), found.get(0));
        assertEquals(List.of(), problems("x.md", "`./wsjava serve --page: subscribes`, `./wsjava serve --redis` and `./wsjava serve --redis=redis://HOST:PORT`"));
    }
}
