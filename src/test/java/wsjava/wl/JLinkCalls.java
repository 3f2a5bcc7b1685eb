package wsjava.wl;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the J/Link uses in WL source text: LoadJavaClass, JavaNew, static calls
 * {@code Class`method[args]} and instance calls {@code receiver@method[args]}. Symja's parser drops
 * contexts from symbol names, so this works on the text itself, skipping comments and strings.
 */
final class JLinkCalls {

    enum Kind { LOAD_CLASS, JAVA_NEW, STATIC, INSTANCE }

    /** One use, with its arguments as source text split at top-level commas. */
    static final class Call {
        final Kind kind;
        final String owner;     // class short name (STATIC), receiver text (INSTANCE), or class name
        final String method;
        final List<String> args;
        final String where;

        Call(Kind kind, String owner, String method, List<String> args, String where) {
            this.kind = kind;
            this.owner = owner;
            this.method = method;
            this.args = args;
            this.where = where;
        }

        @Override
        public String toString() {
            return where + ": " + owner + (kind == Kind.INSTANCE ? "@" : "`") + method + "/" + args.size();
        }
    }

    // A one-segment context only: WSJavaTests`WLJSApp`run[] is a WL function, not a class's static method.
    private static final Pattern STATIC = Pattern.compile("(?<![A-Za-z0-9$`])([A-Za-z][A-Za-z0-9]*)`([a-z][A-Za-z0-9]*)\\[");
    private static final Pattern INSTANCE = Pattern.compile("([A-Za-z$][A-Za-z0-9$]*)@([a-z][A-Za-z0-9]*)\\[");
    private static final Pattern LOAD = Pattern.compile("\\bLoadJavaClass\\[");
    private static final Pattern NEW = Pattern.compile("\\bJavaNew\\[");

    private final String source;
    private final String code;     // comments and string contents blanked: regexes run on this
    private final String name;

    JLinkCalls(String name, String source) {
        this.name = name;
        this.source = source;
        this.code = blankCommentsAndStrings(source);
    }

    List<Call> find() {
        List<Call> calls = new ArrayList<>();
        collect(LOAD, Kind.LOAD_CLASS, calls);
        collect(NEW, Kind.JAVA_NEW, calls);
        collect(STATIC, Kind.STATIC, calls);
        collect(INSTANCE, Kind.INSTANCE, calls);
        return calls;
    }

    private void collect(Pattern pattern, Kind kind, List<Call> out) {
        Matcher m = pattern.matcher(code);
        while (m.find()) {
            int open = m.end() - 1;
            List<String> args = arguments(open);
            String where = name + ":" + line(m.start());
            switch (kind) {
                case STATIC:
                case INSTANCE:
                    out.add(new Call(kind, m.group(1), m.group(2), args, where));
                    break;
                default:
                    String cls = args.isEmpty() ? "" : resolveString(args.get(0));
                    out.add(new Call(kind, cls, kind == Kind.JAVA_NEW ? "<init>" : "", kind == Kind.JAVA_NEW
                            ? args.subList(Math.min(1, args.size()), args.size()) : args, where));
            }
        }
    }

    /** A string literal's contents, or the literal a symbol was assigned ({@code $x = "a.B"}) in this file. */
    String resolveString(String arg) {
        String a = arg.trim();
        if (a.startsWith("\"") && a.endsWith("\"") && a.length() >= 2) {
            return a.substring(1, a.length() - 1);
        }
        Matcher assigned = Pattern.compile(Pattern.quote(a) + "\\s*=\\s*\"([^\"]*)\"").matcher(source);
        return assigned.find() ? assigned.group(1) : "?" + a;
    }

    /** Whether {@code receiver} is bound to GetJavaException[] in this file (a java.lang.Throwable). */
    boolean boundToJavaException(String receiver) {
        return Pattern.compile("(^|[^A-Za-z0-9$])" + Pattern.quote(receiver) + "\\s*=\\s*GetJavaException\\[\\]").matcher(code).find();
    }

    private List<String> arguments(int open) {
        List<String> args = new ArrayList<>();
        int depth = 0;
        int start = open + 1;
        for (int i = open; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '[' || c == '{' || c == '(' || (c == '<' && i + 1 < code.length() && code.charAt(i + 1) == '|')) {
                depth++;
            } else if (c == ']' || c == '}' || c == ')' || (c == '|' && i + 1 < code.length() && code.charAt(i + 1) == '>')) {
                depth--;
                if (depth == 0) {
                    String last = source.substring(start, i).trim();
                    if (!last.isEmpty() || !args.isEmpty()) {
                        args.add(last);
                    }
                    return args;
                }
            } else if (c == ',' && depth == 1) {
                args.add(source.substring(start, i).trim());
                start = i + 1;
            }
        }
        throw new IllegalStateException(name + ": unbalanced brackets after offset " + open);
    }

    private int line(int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (source.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    /** Same length as the source; comments and string contents become spaces, quotes stay. */
    static String blankCommentsAndStrings(String s) {
        return blank(s, true);
    }

    /** Same length as the source; comments become spaces, strings stay. */
    static String blankComments(String s) {
        return blank(s, false);
    }

    private static String blank(String s, boolean strings) {
        StringBuilder b = new StringBuilder(s);
        int i = 0;
        while (i < s.length()) {
            if (s.startsWith("(*", i)) {
                int depth = 0;
                while (i < s.length()) {
                    if (s.startsWith("(*", i)) {
                        depth++;
                        b.setCharAt(i, ' ');
                        b.setCharAt(i + 1, ' ');
                        i += 2;
                    } else if (s.startsWith("*)", i)) {
                        depth--;
                        b.setCharAt(i, ' ');
                        b.setCharAt(i + 1, ' ');
                        i += 2;
                        if (depth == 0) {
                            break;
                        }
                    } else {
                        if (s.charAt(i) != '\n') {
                            b.setCharAt(i, ' ');
                        }
                        i++;
                    }
                }
            } else if (s.charAt(i) == '"') {
                i++;
                while (i < s.length() && s.charAt(i) != '"') {
                    if (s.charAt(i) == '\\' && i + 1 < s.length()) {
                        if (strings) {
                            b.setCharAt(i, ' ');
                        }
                        i++;
                    }
                    if (strings && s.charAt(i) != '\n') {
                        b.setCharAt(i, ' ');
                    }
                    i++;
                }
                i++;
            } else {
                i++;
            }
        }
        return b.toString();
    }
}
