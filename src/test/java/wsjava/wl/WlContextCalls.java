package wsjava.wl;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.matheclipse.parser.client.ast.ASTNode;
import org.matheclipse.parser.client.ast.FunctionNode;

/**
 * BeginPackage and Begin must each be a top-level expression of their own. Get parses a whole
 * top-level expression before it evaluates any of it, and symbols are created at parse time in the
 * $Context and $ContextPath of that moment: a BeginPackage inside an If (or followed by code on its
 * own line, which makes one CompoundExpression with it) changes no context for that code, and its
 * names land in the reader's context (Global`).
 */
final class WlContextCalls {

    private static final Set<String> CONTEXT_CALLS = Set.of("BeginPackage", "Begin");
    private static final Set<String> ALLOWED_BESIDE = Set.of("BeginPackage", "Begin", "EndPackage", "End", "Null");

    private WlContextCalls() {
    }

    /** One line per BeginPackage or Begin that is not a top-level expression of its own. */
    static List<String> notAtTopLevel(String name, String source) {
        List<String> out = new ArrayList<>();
        for (ASTNode node : WlSources.parse(source)) {
            if (contextCallOnly(node)) {
                continue;
            }
            List<String> nested = new ArrayList<>();
            collect(node, nested);
            for (String call : nested) {
                out.add(name + ": " + call + " inside the top-level expression " + shorten(withoutTrailingNull(node).toString())
                        + " (symbols after it are made before it runs, in the reader's context)");
            }
        }
        out.addAll(codeAfterOnTheSameLine(name, source));
        return out;
    }

    /** BeginPackage[...] alone, or a CompoundExpression of context calls and a trailing Null. */
    private static boolean contextCallOnly(ASTNode node) {
        if (!(node instanceof FunctionNode)) {
            return true;
        }
        FunctionNode f = (FunctionNode) node;
        String head = headName(f);
        if (CONTEXT_CALLS.contains(head)) {
            return true;
        }
        if (!head.equals("CompoundExpression")) {
            return false;
        }
        for (int i = 1; i < f.size(); i++) {
            ASTNode part = f.get(i);
            String partHead = part instanceof FunctionNode ? headName((FunctionNode) part) : String.valueOf(part.getString());
            if (!ALLOWED_BESIDE.contains(partHead)) {
                return false;
            }
        }
        return true;
    }

    private static void collect(ASTNode node, List<String> out) {
        if (!(node instanceof FunctionNode)) {
            return;
        }
        FunctionNode f = (FunctionNode) node;
        String head = headName(f);
        if (CONTEXT_CALLS.contains(head)) {
            out.add(head + "[" + (f.size() > 1 ? f.get(1).getString() : "") + "]");
        }
        for (int i = 0; i < f.size(); i++) {
            collect(f.get(i), out);
        }
    }

    /**
     * Symja's parsePackage splits a line at a top-level ";", where the kernel reads the whole line as
     * one CompoundExpression: BeginPackage["A`"]; f[x_] := x makes Global`f. So this is found in the text.
     */
    private static List<String> codeAfterOnTheSameLine(String name, String source) {
        List<String> out = new ArrayList<>();
        String bare = JLinkCalls.blankCommentsAndStrings(source);
        Matcher m = Pattern.compile("(?m)^[ \\t]*(BeginPackage|Begin)\\[").matcher(bare);
        while (m.find()) {
            int close = WlTestPitfalls.matching(bare, m.end() - 1);
            int lineEnd = bare.indexOf('\n', close);
            String rest = bare.substring(Math.min(close + 1, bare.length()), lineEnd < 0 ? bare.length() : lineEnd)
                    .replaceAll("[;\\s]", "");
            if (!rest.isEmpty() && !rest.matches("((BeginPackage|Begin|EndPackage|End)\\[[^\\]]*\\])+")) {
                int line = bare.substring(0, m.start()).split("\n", -1).length;
                out.add(name + ":" + line + ": " + m.group(1) + " with more code on its line (one expression with it,"
                        + " parsed before it runs)");
            }
        }
        return out;
    }

    /** The head's name, or "" when the head is itself an expression (f[x][y]). */
    private static String headName(FunctionNode f) {
        return f.get(0) instanceof FunctionNode ? "" : String.valueOf(f.get(0).getString());
    }

    /** expr; at the end of a line is CompoundExpression[expr, Null]: show expr. */
    private static ASTNode withoutTrailingNull(ASTNode node) {
        if (node instanceof FunctionNode && headName((FunctionNode) node).equals("CompoundExpression") && ((FunctionNode) node).size() == 3
                && "Null".equals(((FunctionNode) node).get(2).getString())) {
            return ((FunctionNode) node).get(1);
        }
        return node;
    }

    private static String shorten(String expression) {
        String flat = expression.replaceAll("\\s+", " ");
        return flat.length() <= 80 ? flat : flat.substring(0, 77) + "...";
    }
}
