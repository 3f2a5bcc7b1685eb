package wsjava.wl;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Static checks for WL defects that no engine here can show at run time but that source text
 * can: each method looks for one known trap (see shared/notes/wl-semantics.md) in code whose
 * comments and strings are blanked, and returns one line per finding. WlPitfallsTest runs them
 * on the project and on planted fixtures, so each is shown able to fail.
 */
final class WlPitfalls {

    /** One WL source: a name for messages, its text, and whether it is a paclet Kernel file. */
    static final class Source {
        final String name;
        final String text;
        final String code;
        final boolean kernel;

        Source(String name, String text, boolean kernel) {
            this.name = name;
            this.text = text;
            this.code = JLinkCalls.blankCommentsAndStrings(text);
            this.kernel = kernel;
        }

        String at(int offset) {
            int line = 1;
            for (int i = 0; i < offset; i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                }
            }
            return name + ":" + line;
        }
    }

    private WlPitfalls() {
    }

    static List<String> all(List<Source> sources) {
        List<String> problems = new ArrayList<>();
        for (Source s : sources) {
            problems.addAll(upValueSetOnModuleLocal(s));
            problems.addAll(byteArrayToStringAsTest(s));
            problems.addAll(scriptCommandLineInKernel(s));
            problems.addAll(javaStartResultIgnored(s));
            problems.addAll(dynamicOrUpdateInterval(s));
            problems.addAll(complementInKernel(s));
            problems.addAll(javaCallOutsideJavaCall(s));
            problems.addAll(taskNeverRemoved(s));
            problems.addAll(namedSlotsWithoutParameters(s));
            problems.addAll(scopingOutsidePrivate(s));
            problems.addAll(javaExceptionNotByCheck(s));
        }
        problems.addAll(optionsNeverChecked(sources));
        return problems;
    }

    /** {@code Module[{h}, h /: Set[...] := ...]}: x = h; x[k] = v stores a DownValue and never reaches it. */
    static List<String> upValueSetOnModuleLocal(Source s) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("\\bModule\\[\\s*\\{").matcher(s.code);
        while (m.find()) {
            int open = m.end() - 1;
            int close = matching(s.code, open);
            int bodyEnd = matching(s.code, s.code.indexOf('[', m.start()));
            for (String v : s.code.substring(open + 1, close).split(",")) {
                String name = v.split("=")[0].trim();
                if (!name.matches("[A-Za-z$][A-Za-z0-9$]*")) {
                    continue;
                }
                Matcher tag = Pattern.compile("(^|[^A-Za-z0-9$`])" + Pattern.quote(name) + "\\s*/:\\s*Set(Delayed)?\\[")
                        .matcher(s.code.substring(close, bodyEnd));
                if (tag.find()) {
                    out.add(s.at(close + tag.start()) + ": Set rule as an UpValue of the Module symbol " + name
                            + " (a variable that holds it never reaches it; put the rule on the variable, as WLJS's Objects.wl does)");
                }
            }
        }
        return out;
    }

    /** ByteArrayToString substitutes characters for bad UTF-8: it never fails, so it cannot test. */
    static List<String> byteArrayToStringAsTest(Source s) {
        return find(s, "\\b(Quiet|Check|StringQ|FailureQ)\\[\\s*ByteArrayToString\\[",
                "ByteArrayToString used as a UTF-8 test; it never fails on invalid UTF-8");
    }

    /** $ScriptCommandLine is non-empty under wolframscript -f, as WLJS's backend runs: it says nothing about who drains. */
    static List<String> scriptCommandLineInKernel(Source s) {
        return s.kernel ? find(s, "\\$ScriptCommandLine", "paclet code keyed on $ScriptCommandLine") : List.of();
    }

    /** InstallJava and LoadJavaClass give $Failed on failure; a result nobody looks at hides it. */
    static List<String> javaStartResultIgnored(Source s) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("\\b(InstallJava|LoadJavaClass)\\[").matcher(s.code);
        while (m.find()) {
            String before = s.code.substring(0, m.start()).stripTrailing();
            if (!(before.endsWith("=") || before.endsWith("Check[") || before.endsWith("Head["))) {
                out.add(s.at(m.start()) + ": the result of " + m.group(1) + " is not checked");
            }
        }
        return out;
    }

    /** WLJS displays Refresh[expr, seconds] only: no Dynamic, no UpdateInterval. */
    static List<String> dynamicOrUpdateInterval(Source s) {
        return s.name.contains(".wln") ? find(s, "\\b(Dynamic|UpdateInterval)\\b", "WLJS has no Dynamic; use Refresh[expr, seconds]")
                : List.of();
    }

    /** Complement sorts its result: clients lose their order. */
    static List<String> complementInKernel(Source s) {
        return s.kernel ? find(s, "\\bComplement\\[", "Complement reorders; use DeleteCases or Select") : List.of();
    }

    /** The wrappers a facade call may sit in: javaCall[call], javaCallOn[link, call], serverCall[handle, call]. */
    private static final Pattern WRAPPER = Pattern.compile("(?:^|[^A-Za-z0-9$`])(javaCall|javaCallOn|serverCall)$");

    /**
     * Every facade call goes through a wrapper, so failures become Failures and a drain cannot
     * preempt it; and each wrapper's whole body is one PreemptProtect (starting Java included).
     */
    static List<String> javaCallOutsideJavaCall(Source s) {
        List<String> out = new ArrayList<>();
        if (!s.kernel) {
            return out;
        }
        Matcher m = Pattern.compile("\\bWSJavaLink`[a-z][A-Za-z0-9]*\\[").matcher(s.code);
        while (m.find()) {
            int open = enclosingBracket(s.code, m.start());
            if (open < 0 || !WRAPPER.matcher(s.code.substring(Math.max(0, open - 40), open)).find()) {
                out.add(s.at(m.start()) + ": a J/Link call outside javaCall");
            }
        }
        Matcher def = Pattern.compile("(?m)^(javaCall|javaCallOn)\\[[^\\]]*\\]\\s*:=\\s*").matcher(s.code);
        while (def.find()) {
            if (!s.code.startsWith("PreemptProtect[", def.end())) {
                out.add(s.at(def.start()) + ": " + def.group(1) + " does not PreemptProtect the J/Link call");
            }
        }
        return out;
    }

    /** The index of the [ of the call that encloses {@code at}, or -1 at top level. */
    private static int enclosingBracket(String code, int at) {
        int depth = 0;
        for (int i = at - 1; i >= 0; i--) {
            char c = code.charAt(i);
            if (c == ']' || c == '}' || c == ')') {
                depth++;
            } else if (c == '[' || c == '{' || c == '(') {
                if (depth == 0) {
                    return c == '[' ? i : -1;
                }
                depth--;
            }
        }
        return -1;
    }

    /** A scheduled task that nothing removes errors, or relaunches Java, every tick once its server is gone. */
    static List<String> taskNeverRemoved(Source s) {
        return s.kernel && s.code.contains("SessionSubmit[") && !s.code.contains("TaskRemove[")
                ? List.of(s.at(s.code.indexOf("SessionSubmit[")) + ": a scheduled task that this file never removes")
                : List.of();
    }

    /**
     * A Success or Failure whose "MessageTemplate" names a slot (`ByteCount`) fills it from
     * "MessageParameters" only: without them its message reads "Sent `ByteCount` bytes."
     */
    static List<String> namedSlotsWithoutParameters(Source s) {
        List<String> out = new ArrayList<>();
        String raw = JLinkCalls.blankComments(s.text);
        Matcher m = Pattern.compile("\\b(Success|Failure)\\[\\s*\"[A-Za-z]+\"\\s*,\\s*<\\|").matcher(raw);
        while (m.find()) {
            int close = raw.indexOf("|>", m.end());
            String association = raw.substring(m.end(), close < 0 ? raw.length() : close);
            if (Pattern.compile("\"MessageTemplate\"\\s*(->|:>)\\s*\"(?:[^\"\\\\]|\\\\.)*?`[A-Za-z]+`").matcher(association).find()
                    && !association.contains("\"MessageParameters\"")) {
                out.add(s.at(m.start()) + ": a " + m.group(1) + " template with a named slot but no \"MessageParameters\"");
            }
        }
        return out;
    }

    /**
     * A Kernel file's top-level With, Module or Block outside Begin["`Private`"] creates its
     * variables in whatever context the user is in (With[{dir = ...}] made Global`dir).
     */
    static List<String> scopingOutsidePrivate(Source s) {
        if (!s.kernel) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        boolean inPrivate = false;
        int offset = 0;
        for (String line : s.code.split("\n", -1)) {
            if (line.startsWith("Begin[")) {
                inPrivate = true;
            } else if (line.startsWith("End[")) {
                inPrivate = false;
            } else if (!inPrivate && line.matches("^(With|Module|Block)\\[\\s*\\{.*")) {
                out.add(s.at(offset) + ": a top-level " + line.substring(0, line.indexOf('[')) + " outside Begin[\"`Private`\"]"
                        + " makes its variables in the user's context");
            }
            offset += line.length() + 1;
        }
        return out;
    }

    /**
     * Whether a Java call threw is decided by Check[call, fail, {Java::excptn}], whose operation
     * Quiet does not change (reference page of Check). Nothing documents that $MessageList records
     * a quieted message, so Java::excptn anywhere else (MemberQ[$MessageList, ...]) is a guess.
     */
    static List<String> javaExceptionNotByCheck(Source s) {
        List<String> out = new ArrayList<>();
        if (!s.kernel) {
            return out;
        }
        Matcher m = Pattern.compile("Java::excptn").matcher(s.code);
        while (m.find()) {
            // The list {Java::excptn} must be an argument of a Check[.
            int brace = s.code.lastIndexOf('{', m.start());
            int open = brace < 0 ? -1 : enclosingBracket(s.code, brace);
            String before = open < 0 ? "" : s.code.substring(Math.max(0, open - 40), open);
            boolean inCheckList = brace >= 0 && s.code.substring(brace + 1, m.start()).isBlank()
                    && s.code.substring(Math.max(0, brace - 20), brace).matches("(?s).*,\\s*$")
                    && before.matches("(?s).*(?<![A-Za-z0-9$`])Check$");
            if (!inCheckList) {
                out.add(s.at(m.start()) + ": Java::excptn looked for outside Check[call, fail, {Java::excptn}]");
            }
        }
        return out;
    }

    /** OptionsPattern[] accepts misspelled options silently: every function that takes options must check their names. */
    static List<String> optionsNeverChecked(List<Source> sources) {
        Set<String> checked = new LinkedHashSet<>();
        List<String> out = new ArrayList<>();
        Pattern check = Pattern.compile("unknownOptionFailure\\[\\s*([A-Za-z$][A-Za-z0-9$]*)");
        Pattern takesOptions = Pattern.compile("(?m)^(?:[A-Za-z$][A-Za-z0-9$]*\\s*/:\\s*)?([A-Z][A-Za-z0-9$]*)\\[[^\\n]*OptionsPattern\\[");
        for (Source s : sources) {
            Matcher m = check.matcher(s.code);
            while (m.find()) {
                checked.add(m.group(1));
            }
        }
        for (Source s : sources) {
            if (!s.kernel) {
                continue;
            }
            Matcher m = takesOptions.matcher(s.code);
            while (m.find()) {
                String f = m.group(1);
                // SyntaxInformation[f] = {"ArgumentsPattern" -> {..., OptionsPattern[]}} describes f; it takes no options.
                if (!f.equals("SyntaxInformation") && !checked.contains(f) && !isChannelForward(s.code, m.start())) {
                    out.add(s.at(m.start()) + ": " + f + " takes OptionsPattern[] but never checks for unknown options");
                }
            }
        }
        return out;
    }

    /** An UpValue that only passes its options on to a function that checks them. */
    private static boolean isChannelForward(String code, int at) {
        String line = code.substring(at, code.indexOf('\n', at) < 0 ? code.length() : code.indexOf('\n', at));
        return line.matches("^[A-Za-z$][A-Za-z0-9$]*\\s*/:.*OptionsPattern\\[[A-Za-z]+\\].*");
    }

    /**
     * On WLJS's kernel ports any web page may open GET /, and the demo page's self-test and text
     * box would feed the kernel's ToExpression: every WSJavaListen in code (or a snippet) that
     * serves a WLJS listener passes "Page" -> None.
     */
    static List<String> pageOnWljsPorts(String name, String wl) {
        List<String> out = new ArrayList<>();
        String bare = JLinkCalls.blankComments(wl);
        Matcher m = Pattern.compile("(?<![A-Za-z0-9$])WSJavaListen\\[").matcher(bare);
        while (m.find()) {
            int close = matching(JLinkCalls.blankCommentsAndStrings(wl), m.end() - 1);
            if (!bare.substring(m.end(), close).matches("(?s).*\"Page\"\\s*->\\s*None.*")) {
                out.add(name + ":" + (bare.substring(0, m.start()).split("\n", -1).length) + ": a WSJavaListen for WLJS without \"Page\" -> None");
            }
        }
        return out;
    }

    private static List<String> find(Source s, String regex, String what) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(s.code);
        while (m.find()) {
            out.add(s.at(m.start()) + ": " + what);
        }
        return out;
    }

    /** The index of the bracket that closes the one at {@code open} ([, { or (). */
    private static int matching(String code, int open) {
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
