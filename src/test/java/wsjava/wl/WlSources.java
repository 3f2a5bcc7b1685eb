package wsjava.wl;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.matheclipse.parser.client.Parser;
import org.matheclipse.parser.client.ParserConfig;
import org.matheclipse.parser.client.ast.ASTNode;
import org.matheclipse.parser.client.ast.FunctionNode;
import org.matheclipse.parser.client.ast.StringNode;
import wsjava.testing.ExternalTools;

/** The project's WL sources, and Symja's parser set up for Mathematica syntax. */
final class WlSources {

    static final List<String> ROOTS = List.of("paclet", "wl", "wljs", "notebooks");
    static final List<String> EXTENSIONS = List.of(".wl", ".wls", ".wlt", ".wln", ".nb");

    private WlSources() {
    }

    static List<Path> files() {
        List<Path> all = new ArrayList<>();
        for (String root : ROOTS) {
            Path dir = ExternalTools.PROJECT.resolve(root);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(dir)) {
                all.addAll(walk.filter(p -> EXTENSIONS.stream().anyMatch(e -> p.toString().endsWith(e)))
                        .sorted().collect(Collectors.toList()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return all;
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses WL source as Mathematica syntax; throws with Symja's message (line and caret) on an error. */
    static List<ASTNode> parse(String source) {
        ParserConfig.PARSER_USE_LOWERCASE_SYMBOLS = false;
        return new Parser(false, true).parsePackage(source);
    }

    /**
     * The code of a .wln notebook's cells: every "Data" string of a cell that is not Markdown
     * (a cell whose Data starts with ".md" and a newline).
     */
    static List<String> notebookCode(String notebookSource) {
        List<String> code = new ArrayList<>();
        for (ASTNode node : parse(notebookSource)) {
            collectData(node, code);
        }
        return code;
    }

    private static void collectData(ASTNode node, List<String> out) {
        if (!(node instanceof FunctionNode)) {
            return;
        }
        FunctionNode f = (FunctionNode) node;
        String head = f.get(0).getString();
        if ((head.equals("Rule") || head.equals("RuleDelayed")) && f.size() == 3
                && f.get(1) instanceof StringNode && f.get(1).getString().equals("Data") && f.get(2) instanceof StringNode) {
            String data = f.get(2).getString();
            if (!data.startsWith(".md\n") && !data.startsWith(".md\r\n")) {
                out.add(data);
            }
            return;
        }
        for (int i = 1; i < f.size(); i++) {
            collectData(f.get(i), out);
        }
    }
}
