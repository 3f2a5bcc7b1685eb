package wsjava.wl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * docs/wl-reference.md, generated from the paclet's Kernel sources: every public symbol with its
 * ::usage, its options with their defaults (Options[f] = {...}), and the Failure forms it can
 * give (the Failure tags made by its own definitions and by every paclet function they call),
 * then every message and every Failure tag with its template. WlReferenceTest fails when the
 * committed file differs from what this makes; ./wsjava wl-reference writes it.
 */
final class WlReference {

    static final Path KERNEL = Path.of("paclet/WSJava/Kernel");
    static final Path OUTPUT = Path.of("docs/wl-reference.md");

    /** The Kernel files in reading order, and the context each one's public symbols live in. */
    static final Map<String, String> FILES = new LinkedHashMap<>();

    static {
        FILES.put("WSJava.wl", "WSJava`");
        FILES.put("WLJS.wl", "WSJava`WLJS`");
        FILES.put("WLJSExtension.wl", "WSJava`WLJSExtension`");
    }

    /** Failures the paclet keeps in a list (server["HandlerFailures"]) and never gives back. */
    static final Set<String> RECORDED_ONLY = Set.of("WSJavaHandlerFailed");

    private WlReference() {
    }

    public static void main(String[] args) throws IOException {
        Files.writeString(OUTPUT, generate(KERNEL), StandardCharsets.UTF_8);
        System.out.println("wrote " + OUTPUT);
    }

    /** One top-level expression: what it defines (its head symbol), what it calls, the tags it makes. */
    private static final class Definition {
        final String defines;
        final Set<String> calls = new TreeSet<>();
        final Set<String> tags = new TreeSet<>();
        final Set<String> successes = new TreeSet<>();

        Definition(String defines) {
            this.defines = defines;
        }
    }

    static String generate(Path kernel) throws IOException {
        Map<String, String> sources = new LinkedHashMap<>();
        try (var files = Files.list(kernel)) {
            files.filter(p -> p.toString().endsWith(".wl")).sorted().forEach(p -> {
                try {
                    sources.put(p.getFileName().toString(), Files.readString(p, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
        List<Definition> definitions = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> messages = new LinkedHashMap<>();
        Map<String, String> tagTemplates = new LinkedHashMap<>();
        for (String source : sources.values()) {
            String code = blank(source, true);
            for (int[] e : topLevelExpressions(code)) {
                String text = source.substring(e[0], e[1]);
                String bare = code.substring(e[0], e[1]);
                collect(text, bare, definitions, options, messages, tagTemplates);
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("# WSJava: the Wolfram Language reference\n\n")
                .append("Generated from `paclet/WSJava/Kernel/*.wl` by `./wsjava wl-reference`; the test suite fails when\n")
                .append("this file is stale. Each entry is the symbol's `::usage`, its options with their defaults, and the\n")
                .append("`Failure` forms it can give (made by its own definitions or by the paclet functions they call;\n")
                .append("each comes with the message in the tables at the end, unless the table says otherwise).\n");
        for (Map.Entry<String, String> file : FILES.entrySet()) {
            String source = sources.get(file.getKey());
            if (source == null) {
                continue;
            }
            out.append("\n## ").append(file.getValue()).append("\n\n");
            out.append(file.getValue().equals("WSJava`") ? "`Needs[\"WSJava`\"]`.\n"
                    : "`Needs[\"" + file.getValue() + "\"]` (not loaded by `Needs[\"WSJava`\"]`).\n");
            Matcher usage = Pattern.compile("(?m)^([A-Za-z$][A-Za-z0-9$]*)::usage\\s*=\\s*\"([^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+)\"").matcher(source);
            while (usage.find()) {
                String symbol = usage.group(1);
                // One usage line per form, as the built-ins write them: each its own line here.
                out.append("\n### ").append(symbol).append("\n\n").append(unescape(usage.group(2)).replace("\n", "  \n")).append("\n");
                String opts = options.get(symbol);
                if (opts != null) {
                    out.append("\n| option | default | meaning |\n|---|---|---|\n");
                    for (String rule : topLevelItems(opts)) {
                        // The option's comment, (* ... *) after its value, says what it means.
                        Matcher note = Pattern.compile("(?s)\\(\\*\\s*(.*?)\\s*\\*\\)\\s*$").matcher(rule);
                        String meaning = note.find() ? note.group(1).replaceAll("\\s+", " ") : "";
                        String bareRule = note.find(0) ? rule.substring(0, note.start()).trim() : rule;
                        int arrow = bareRule.indexOf("->");
                        String name = arrow < 0 ? bareRule : bareRule.substring(0, arrow).trim();
                        String value = arrow < 0 ? "" : bareRule.substring(arrow + 2).trim();
                        out.append("| `").append(name).append("` | `").append(value.replace("|", "\\|")).append("` | ")
                                .append(cell(meaning)).append(" |\n");
                    }
                }
                Set<String> successes = reachable(symbol, definitions, true);
                if (!successes.isEmpty()) {
                    out.append("\nSuccess: ");
                    out.append(String.join(", ", successes.stream().map(t -> "`Success[\"" + t + "\", ...]`").toArray(String[]::new)));
                    out.append(".\n");
                }
                Set<String> tags = reachable(symbol, definitions, false);
                if (!tags.isEmpty()) {
                    out.append("\nFailures: ");
                    out.append(String.join(", ", tags.stream().map(t -> "`Failure[\"" + t + "\", ...]`").toArray(String[]::new)));
                    out.append(".\n");
                }
            }
        }
        out.append("\n## Messages\n\n| message | text |\n|---|---|\n");
        messages.forEach((name, text) -> out.append("| `").append(name).append("` | ").append(cell(text)).append(" |\n"));
        out.append("\n## Failure and Success tags\n\n| tag | message template |\n|---|---|\n");
        tagTemplates.forEach((tag, template) -> out.append("| `").append(tag).append("` | ").append(cell(template)).append(" |\n"));
        return out.toString();
    }

    private static void collect(String text, String bare, List<Definition> definitions, Map<String, String> options,
            Map<String, String> messages, Map<String, String> tagTemplates) {
        String trimmed = bare.trim();
        Matcher opts = Pattern.compile("^Options\\[([A-Za-z$][A-Za-z0-9$]*)\\]\\s*=\\s*\\{").matcher(trimmed);
        if (opts.find()) {
            int lead = bare.indexOf(trimmed);
            int open = lead + opts.end() - 1;
            options.put(opts.group(1), text.substring(open + 1, WlTestPitfalls.matching(bare, open)));
        }
        Matcher message = Pattern.compile("(?m)^(WSJava::[a-z]+)\\s*=\\s*\"([^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+)\"").matcher(text);
        while (message.find()) {
            if (!message.group(1).equals("WSJava::usage")) {
                messages.put(message.group(1), unescape(message.group(2)));
            }
        }
        Matcher head = Pattern.compile("^(?:([A-Za-z$][A-Za-z0-9$`]*)\\s*/:\\s*)?([A-Za-z$][A-Za-z0-9$`]*)\\[").matcher(trimmed);
        if (!head.find() || !trimmed.contains(":=") && !trimmed.contains("= ")) {
            return;
        }
        Definition d = new Definition(head.group(1) != null ? head.group(1) : head.group(2));
        Matcher call = Pattern.compile("(?<![A-Za-z0-9$`])([A-Za-z$][A-Za-z0-9$]*)\\[").matcher(bare);
        while (call.find()) {
            d.calls.add(call.group(1));
        }
        Matcher tag = Pattern.compile("(Failure|Success)\\[\\s*\"([A-Za-z]+)\"\\s*,\\s*<\\|\\s*\"MessageTemplate\"\\s*(?::>|->)\\s*"
                + "(WSJava::[a-z]+|\"[^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+\")").matcher(text);
        while (tag.find()) {
            (tag.group(1).equals("Failure") ? d.tags : d.successes).add(tag.group(2));
            String template = tag.group(3).startsWith("\"") ? unescape(tag.group(3).substring(1, tag.group(3).length() - 1)) : tag.group(3);
            tagTemplates.putIfAbsent(tag.group(2), template + (text.contains("Message[") ? "" : " (no message)"));
        }
        definitions.add(d);
    }

    /** The Failure (or Success) tags a public symbol's definitions make, directly or through the functions they call. */
    private static Set<String> reachable(String symbol, List<Definition> definitions, boolean successes) {
        Set<String> seen = new TreeSet<>();
        Set<String> tags = new TreeSet<>();
        Deque<String> todo = new ArrayDeque<>(List.of(symbol));
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (!seen.add(name)) {
                continue;
            }
            for (Definition d : definitions) {
                if (d.defines.equals(name)) {
                    (successes ? d.successes : d.tags).stream().filter(t -> !RECORDED_ONLY.contains(t)).forEach(tags::add);
                    // Public functions called along the way have entries of their own: follow only private ones.
                    d.calls.stream().filter(c -> Character.isLowerCase(c.charAt(0))).forEach(todo::push);
                }
            }
        }
        return tags;
    }

    // ---- text ----

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    static String unescape(String wl) {
        return wl.replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\");
    }

    /** The items of a list body, split at its top-level commas. */
    static List<String> topLevelItems(String body) {
        String bare = blank(body, true);
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < bare.length(); i++) {
            char c = bare.charAt(i);
            if (c == '[' || c == '{' || c == '(') {
                depth++;
            } else if (c == ']' || c == '}' || c == ')') {
                depth--;
            } else if (c == '<' && i + 1 < bare.length() && bare.charAt(i + 1) == '|') {
                depth++;
            } else if (c == '|' && i + 1 < bare.length() && bare.charAt(i + 1) == '>') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(body.substring(start, i).trim());
                start = i + 1;
            }
        }
        if (body.substring(start).trim().length() > 0) {
            out.add(body.substring(start).trim());
        }
        return out;
    }

    /** Top-level expressions: split at depth-0 semicolons and blank lines (comments and strings blanked). */
    private static List<int[]> topLevelExpressions(String bare) {
        List<int[]> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < bare.length(); i++) {
            char c = bare.charAt(i);
            if (c == '[' || c == '{' || c == '(') {
                depth++;
            } else if (c == ']' || c == '}' || c == ')') {
                depth--;
            } else if (depth == 0 && (c == ';' && (i == 0 || bare.charAt(i - 1) != '/') || (c == '\n' && i + 1 < bare.length() && bare.charAt(i + 1) == '\n'))) {
                out.add(new int[] {start, i});
                start = i + 1;
            }
        }
        out.add(new int[] {start, bare.length()});
        return out;
    }

    private static String blank(String s, boolean strings) {
        return strings ? JLinkCalls.blankCommentsAndStrings(s) : JLinkCalls.blankComments(s);
    }
}
