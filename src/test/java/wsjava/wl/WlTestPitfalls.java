package wsjava.wl;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Static checks for the WL that checks the paclet (the .wlt files, their helpers, Verify.wls) and
 * for WL that users paste (README and guide snippets): code that has never run either, and that
 * a reviewer found broken in ways a grep or a bracket matcher can see. Each method returns one
 * line per finding; WlTestPitfallsTest runs them on the project and on planted fixtures.
 */
final class WlTestPitfalls {

    /** One file: its name, its text, and the text with comments blanked (strings kept). */
    static final class Source {
        final String name;
        final String text;
        final String code;        // comments blanked
        final String bare;        // comments and strings blanked: safe for bracket matching

        Source(String name, String text) {
            this.name = name;
            this.text = text;
            this.code = JLinkCalls.blankComments(text);
            this.bare = JLinkCalls.blankCommentsAndStrings(text);
        }

        String at(int offset) {
            int line = 1;
            for (int i = 0; i < offset && i < text.length(); i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                }
            }
            return name + ":" + line;
        }

        boolean isTest() {
            return name.endsWith(".wlt") || name.contains("/Tests/");
        }

        boolean isVerify() {
            return name.startsWith("wl/verify/");
        }
    }

    /** J/Link's functions: outside the paclet's own files, JLink` is not on $ContextPath. */
    static final List<String> JLINK_FUNCTIONS = List.of("InstallJava", "ReinstallJava", "UninstallJava", "JavaLink",
            "LoadJavaClass", "JavaNew", "JavaBlock", "AddToClassPath", "GetJavaException", "ReleaseJavaObject",
            "JavaObjectQ", "JavaClassPath", "InstanceOf", "ClassName", "Methods", "Fields", "KeepJavaObject",
            "ReturnAsJavaObject", "MakeJavaObject", "JavaShow", "JavaWindowToFront");

    private WlTestPitfalls() {
    }

    /** Every check on every test-side source; messagedTags: Failure tags the paclet always issues a message with. */
    static List<String> all(List<Source> sources, Set<String> messagedTags) {
        List<String> problems = new ArrayList<>();
        for (Source s : sources) {
            if (s.isTest() || s.isVerify()) {
                problems.addAll(loopbackOriginWithoutPort(s));
                problems.addAll(unqualifiedJLink(s));
                problems.addAll(unboundedReads(s));
                problems.addAll(serversLeftAlive(s));
            }
            if (s.isTest()) {
                problems.addAll(expectsNoMessagesFromAMessagingCall(s, messagedTags));
                problems.addAll(generalStopMiscounted(s));
                problems.addAll(drainerNotChosen(s));
            }
        }
        return problems;
    }

    /** A browser's Origin always has the port; the server's own is http://127.0.0.1:PORT, so one without gets 403. */
    static List<String> loopbackOriginWithoutPort(Source s) {
        return find(s, s.code, "Origin: https?://(127\\.0\\.0\\.1|localhost|\\[::1\\])(?![:\\w.])",
                "an Origin for this machine without a port: the server accepts only its own, port included (403)");
    }

    /** ReinstallJava[] in a test file is Global`ReinstallJava[], which does nothing. */
    static List<String> unqualifiedJLink(Source s) {
        if (s.code.contains("BeginPackage[") && s.code.contains("\"JLink`\"")) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?<![A-Za-z0-9$`])(" + String.join("|", JLINK_FUNCTIONS) + ")\\[").matcher(s.bare);
        while (m.find()) {
            out.add(s.at(m.start()) + ": " + m.group(1) + " without JLink` (JLink` is not on the context path here)");
        }
        return out;
    }

    /**
     * ReadLine[process] and SocketReadMessage block with no time-out; a deadline checked between
     * reads bounds nothing. SocketReadMessage must be guarded by SocketReadyQ[socket, t], and a
     * TestReport needs a TimeConstraint.
     */
    static List<String> unboundedReads(Source s) {
        List<String> out = new ArrayList<>(find(s, s.bare, "(?<![A-Za-z0-9$`])ReadLine\\[",
                "ReadLine blocks with no time-out; poll ReadString[p, EndOfBuffer] with a deadline"));
        Matcher m = Pattern.compile("(?<![A-Za-z0-9$`])SocketReadMessage\\[").matcher(s.bare);
        while (m.find()) {
            String before = s.bare.substring(Math.max(0, m.start() - 160), m.start());
            if (!Pattern.compile("If\\[\\s*SocketReadyQ\\[[^\\[\\],]+,[^\\]]+\\]").matcher(before).find()) {
                out.add(s.at(m.start()) + ": SocketReadMessage not guarded by If[SocketReadyQ[socket, t], ...]");
            }
        }
        // Also inside a string of code for a child kernel: there the call ends with its line.
        Matcher report = Pattern.compile("(?<![A-Za-z0-9$`])TestReport\\[").matcher(s.code);
        while (report.find()) {
            int lineEnd = s.code.indexOf('\n', report.start());
            int close = s.bare.charAt(report.end() - 1) == '[' ? matching(s.bare, report.end() - 1) : (lineEnd < 0 ? s.code.length() : lineEnd);
            if (!s.code.substring(report.start(), close).contains("TimeConstraint")) {
                out.add(s.at(report.start()) + ": TestReport without a TimeConstraint");
            }
        }
        return out;
    }

    /**
     * A server or client a test keeps in a variable must be deleted in that same test (or, kept
     * at the top of a file, somewhere in the file): a live one reports its loss when Java goes,
     * holds its port, and runs its handlers in the next file's kernel.
     */
    static List<String> serversLeftAlive(Source s) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("([A-Za-z$][A-Za-z0-9$]*)\\s*=\\s*(WSJavaListen|WSJavaConnect)\\[").matcher(s.bare);
        while (m.find()) {
            String variable = m.group(1);
            int[] test = enclosingCall(s.bare, m.start(), "VerificationTest");
            int[] scope = test != null ? test : topLevelExpression(s.bare, m.start());
            String region = s.bare.substring(test != null ? scope[0] : 0, test != null ? scope[1] : s.bare.length());
            Pattern deleted = Pattern.compile("DeleteObject\\[\\s*" + Pattern.quote(variable) + "\\s*\\]"
                    + "|DeleteObject\\s*/@\\s*\\{[^}]*(?<![A-Za-z0-9$])" + Pattern.quote(variable) + "(?![A-Za-z0-9$])");
            if (!deleted.matcher(region).find()) {
                out.add(s.at(m.start()) + ": " + variable + " = " + m.group(2) + "[...] is never deleted "
                        + (test != null ? "in its test" : "in this file"));
            }
        }
        return out;
    }

    /**
     * VerificationTest[input, expected] with no message list expects no message at all. When the
     * expected value is a Failure the paclet always issues a message with, the test can never pass.
     */
    static List<String> expectsNoMessagesFromAMessagingCall(Source s, Set<String> messagedTags) {
        List<String> out = new ArrayList<>();
        for (int[] test : calls(s.bare, "VerificationTest")) {
            List<int[]> args = arguments(s.bare, test[0]);
            if (args.size() < 2 || (args.size() >= 3 && s.bare.substring(args.get(2)[0], args.get(2)[1]).trim().startsWith("{"))) {
                continue;
            }
            Matcher tag = Pattern.compile("Failure\\[\\s*\"([A-Za-z]+)\"").matcher(s.code.substring(args.get(1)[0], args.get(1)[1]));
            while (tag.find()) {
                if (messagedTags.contains(tag.group(1))) {
                    out.add(s.at(test[0]) + ": expects Failure[\"" + tag.group(1) + "\", ...], which always comes with a"
                            + " message, but no message list");
                }
            }
        }
        return out;
    }

    /**
     * The kernel issues General::stop together with the third identical message of one evaluation
     * (reference page of General::stop: "generated after the indicated message has been generated for
     * the third time"), so a test that expects a message three times must expect General::stop right
     * after the third, and one that expects it four times can never pass.
     */
    static List<String> generalStopMiscounted(Source s) {
        List<String> out = new ArrayList<>();
        for (int[] test : calls(s.bare, "VerificationTest")) {
            List<int[]> args = arguments(s.bare, test[0]);
            if (args.size() < 3) {
                continue;
            }
            String messages = s.bare.substring(args.get(2)[0], args.get(2)[1]).trim();
            if (!messages.startsWith("{")) {
                continue;
            }
            List<String> names = new ArrayList<>();
            Matcher name = Pattern.compile("[A-Za-z$][A-Za-z0-9$`]*::[A-Za-z]+").matcher(messages);
            while (name.find()) {
                names.add(name.group());
            }
            java.util.Map<String, Integer> counts = new java.util.LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                String message = names.get(i);
                if (message.equals("General::stop")) {
                    continue;
                }
                int n = counts.merge(message, 1, Integer::sum);
                if (n == 3 && !(i + 1 < names.size() && names.get(i + 1).equals("General::stop"))) {
                    out.add(s.at(test[0]) + ": expects " + message + " 3 times without General::stop right after the third"
                            + " (the kernel issues General::stop with the third)");
                } else if (n == 4) {
                    out.add(s.at(test[0]) + ": expects " + message + " more than 3 times; after its third, General::stop"
                            + " suppresses it");
                }
            }
        }
        return out;
    }

    /**
     * A scheduled drain task may run between any two steps of a test, so a test cannot know what
     * WL has handled: every server or client a test keeps says who drains ("DrainInterval").
     */
    static List<String> drainerNotChosen(Source s) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("=\\s*(WSJavaListen|WSJavaConnect)\\[").matcher(s.bare);
        while (m.find()) {
            int open = m.end() - 1;
            if (!s.code.substring(open, matching(s.bare, open)).contains("\"DrainInterval\"")) {
                out.add(s.at(m.start()) + ": " + m.group(1) + " in a test without \"DrainInterval\" (None: only the test drains)");
            }
        }
        return out;
    }

    /**
     * WL snippets that users paste into someone else's package file (a WLJS file that opens with
     * BeginPackage): there an unqualified WSJavaListen is created in that package's context. A
     * snippet that names WLJS's contexts, or says it goes into a package file, must use full names.
     */
    static List<String> unqualifiedInPackageSnippets(String name, String markdown, Set<String> pacletSymbols) {
        List<String> out = new ArrayList<>();
        Matcher block = Pattern.compile("(?ms)^```(?:wl|wolfram|mathematica)\\s*\\n(.*?)^```").matcher(markdown);
        while (block.find()) {
            String snippet = block.group(1);
            if (!(snippet.contains("CoffeeLiqueur`") || snippet.contains("Internal`Kernel`") || snippet.contains("(* in a package file"))) {
                continue;
            }
            String bare = JLinkCalls.blankCommentsAndStrings(snippet);
            for (String symbol : pacletSymbols) {
                Matcher use = Pattern.compile("(?<![A-Za-z0-9$`])" + Pattern.quote(symbol) + "(?![A-Za-z0-9$`])").matcher(bare);
                if (use.find()) {
                    int line = markdown.substring(0, block.start(1) + use.start()).split("\n", -1).length;
                    out.add(name + ":" + line + ": " + symbol + " without WSJava` in a snippet for another package's file");
                }
            }
        }
        return out;
    }

    /**
     * A README or guide snippet that calls a J/Link function without JLink` and without loading it:
     * in the user's kernel ``JLink` `` is not on the context path, so ReinstallJava[...] does nothing.
     */
    static List<String> unqualifiedJLinkInSnippets(String name, String markdown) {
        List<String> out = new ArrayList<>();
        Matcher block = Pattern.compile("(?ms)^```(?:wl|wolfram|mathematica)\\s*\\n(.*?)^```").matcher(markdown);
        while (block.find()) {
            String snippet = block.group(1);
            if (snippet.contains("Needs[\"JLink`\"]")) {
                continue;
            }
            String bare = JLinkCalls.blankCommentsAndStrings(snippet);
            Matcher use = Pattern.compile("(?<![A-Za-z0-9$`])(" + String.join("|", JLINK_FUNCTIONS) + ")\\[").matcher(bare);
            while (use.find()) {
                int line = markdown.substring(0, block.start(1) + use.start()).split("\n", -1).length;
                out.add(name + ":" + line + ": " + use.group(1) + " without JLink` (or Needs[\"JLink`\"]) in a snippet");
            }
        }
        // Inline code with arguments is something to type (`ReinstallJava[JVMArguments -> ...]`);
        // `InstallJava[]` in a sentence names what the paclet does.
        Matcher inline = Pattern.compile("(?<![A-Za-z0-9$`])`(" + String.join("|", JLINK_FUNCTIONS) + ")\\[[^`\\]][^`]*`").matcher(markdown);
        while (inline.find()) {
            out.add(name + ":" + markdown.substring(0, inline.start()).split("\n", -1).length + ": `" + inline.group(1)
                    + "[...]` without JLink` in the text");
        }
        return out;
    }

    /** The public symbols of the paclet: every X::usage in the given (WSJava.wl) source. */
    static Set<String> usageSymbols(String source) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = Pattern.compile("(?m)^([A-Za-z$][A-Za-z0-9$]*)::usage\\s*=").matcher(source);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /**
     * Failure tags the paclet always issues a message with: every definition (a top-level
     * expression) that makes Failure["Tag", ...] also calls Message.
     */
    static Set<String> messagedFailureTags(List<Source> kernelFiles) {
        Set<String> always = new LinkedHashSet<>();
        Set<String> silent = new LinkedHashSet<>();
        for (Source s : kernelFiles) {
            Matcher tag = Pattern.compile("Failure\\[\\s*\"([A-Za-z]+)\"").matcher(s.code);
            while (tag.find()) {
                int[] expression = topLevelExpression(s.bare, tag.start());
                boolean messaged = s.bare.substring(expression[0], expression[1]).contains("Message[");
                (messaged ? always : silent).add(tag.group(1));
            }
        }
        always.removeAll(silent);
        return always;
    }

    // ---- brackets ----

    private static List<String> find(Source s, String text, String regex, String what) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            out.add(s.at(m.start()) + ": " + what);
        }
        return out;
    }

    /** The [ of each call of f (at any depth), in order. */
    private static List<int[]> calls(String bare, String function) {
        List<int[]> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?<![A-Za-z0-9$`])" + function + "\\[").matcher(bare);
        while (m.find()) {
            out.add(new int[] {m.end() - 1, matching(bare, m.end() - 1)});
        }
        return out;
    }

    /** The [start, end) of each top-level argument of the call whose [ is at open. */
    static List<int[]> arguments(String bare, int open) {
        List<int[]> out = new ArrayList<>();
        int close = matching(bare, open);
        int depth = 0;
        int start = open + 1;
        for (int i = open + 1; i < close; i++) {
            char c = bare.charAt(i);
            if (c == '[' || c == '{' || c == '(') {
                depth++;
            } else if (c == ']' || c == '}' || c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(new int[] {start, i});
                start = i + 1;
            }
        }
        if (bare.substring(start, close).trim().length() > 0 || !out.isEmpty()) {
            out.add(new int[] {start, close});
        }
        return out;
    }

    /** The [start, end] of the innermost call of f that encloses at, or null. */
    private static int[] enclosingCall(String bare, int at, String function) {
        int[] found = null;
        for (int[] call : calls(bare, function)) {
            if (call[0] < at && at < call[1] && (found == null || call[0] > found[0])) {
                found = call;
            }
        }
        return found;
    }

    /** The top-level expression around at: from the end of the previous depth-0 ";" or blank line to the next. */
    static int[] topLevelExpression(String bare, int at) {
        int depth = 0;
        int start = 0;
        for (int i = 0; i < at; i++) {
            char c = bare.charAt(i);
            if (c == '[' || c == '{' || c == '(') {
                depth++;
            } else if (c == ']' || c == '}' || c == ')') {
                depth--;
            } else if (depth == 0 && (c == ';' && (i == 0 || bare.charAt(i - 1) != '/') || (c == '\n' && i + 1 < bare.length() && bare.charAt(i + 1) == '\n'))) {
                start = i + 1;
            }
        }
        int end = bare.length();
        int d = depth;
        for (int i = at; i < bare.length(); i++) {
            char c = bare.charAt(i);
            if (c == '[' || c == '{' || c == '(') {
                d++;
            } else if (c == ']' || c == '}' || c == ')') {
                d--;
            } else if (d == 0 && (c == ';' && (i == 0 || bare.charAt(i - 1) != '/') || (c == '\n' && i + 1 < bare.length() && bare.charAt(i + 1) == '\n'))) {
                end = i;
                break;
            }
        }
        return new int[] {start, end};
    }

    /** The index of the bracket that closes the one at {@code open}. */
    static int matching(String code, int open) {
        int depth = 0;
        for (int i = open; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '[' || c == '{' || c == '(') {
                depth++;
            } else if (c == ']' || c == '}' || c == ')') {
                depth--;
                if (depth == 0) {
                    return i;
                }
            }
        }
        return code.length();
    }
}
