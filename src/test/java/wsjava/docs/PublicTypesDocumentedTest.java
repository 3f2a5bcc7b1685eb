package wsjava.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every public type of the library has its Javadoc. mvn package builds the Javadoc with doclint
 * on (syntax, HTML, references) and fails on any warning; this adds the rule doclint's "missing"
 * group would apply to every member, for the types, which is what an embedder reads first.
 */
class PublicTypesDocumentedTest {

    private static final Pattern PUBLIC_TYPE = Pattern.compile("(?m)^public\\s+(?:(?:final|abstract|sealed)\\s+)*(class|interface|enum|@interface)\\s+(\\w+)");

    static List<String> undocumented(String name, String source) {
        List<String> out = new ArrayList<>();
        Matcher m = PUBLIC_TYPE.matcher(source);
        while (m.find()) {
            String before = source.substring(0, m.start()).replaceAll("(?m)^\\s*@\\w+(\\([^)]*\\))?\\s*$", "").stripTrailing();
            if (!before.endsWith("*/") || before.lastIndexOf("/**") < before.lastIndexOf("/*")) {
                out.add(name + ": public " + m.group(1) + " " + m.group(2) + " has no Javadoc");
            }
        }
        return out;
    }

    @Test
    void everyPublicTypeHasItsJavadoc() throws IOException {
        List<String> problems = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(Path.of("src/main/java"))) {
            files = walk.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        }
        for (Path p : files) {
            problems.addAll(undocumented(p.toString(), Files.readString(p)));
        }
        assertTrue(files.size() > 50, "the sources were found");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void anUndocumentedPublicTypeIsFound() {
        assertEquals(1, undocumented("X.java", "package x;\n\nimport y;\n\npublic final class X {\n}\n").size());
        assertEquals(1, undocumented("X.java", "package x;\n/* not Javadoc */\npublic interface X {\n}\n").size());
        assertTrue(undocumented("X.java", "package x;\n/** Says why. */\n@Deprecated\npublic class X {\n}\n").isEmpty());
    }
}
