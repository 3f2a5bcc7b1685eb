package wsjava.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The launcher builds the library with named goals (no test dependencies resolved): each execution
 * pom.xml binds for the main build must be among them, so a new one (a module-info compile, say)
 * cannot be left out of the jar ./wsjava serve runs.
 */
@Timeout(30)
class LauncherBuildTest {

    /** Executions that only the tests or the published artifacts need. */
    private static final Set<String> NOT_FOR_SERVING = Set.of("sources", "javadoc");

    @Test
    void theLaunchersGoalsCoverEveryMainExecutionOfThePom() throws Exception {
        String launcher = Files.readString(Path.of("wsjava"));
        for (String base : new String[] {"resources:resources", "compiler:compile@default-compile", "jar:jar@default-jar", "install:install"}) {
            assertTrue(launcher.contains(base), "the launcher's build runs " + base);
        }
        Element build = (Element) DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile())
                .getDocumentElement().getElementsByTagName("build").item(0);
        Element plugins = null;
        for (int i = 0; i < build.getChildNodes().getLength(); i++) {
            if ("plugins".equals(build.getChildNodes().item(i).getNodeName())) {
                plugins = (Element) build.getChildNodes().item(i);
            }
        }
        NodeList executions = plugins.getElementsByTagName("execution");
        for (int i = 0; i < executions.getLength(); i++) {
            Element execution = (Element) executions.item(i);
            Element plugin = (Element) execution.getParentNode().getParentNode();
            String prefix = text(plugin, "artifactId").replaceFirst("^maven-", "").replaceFirst("-plugin$", "");
            String id = text(execution, "id");
            String phase = execution.getElementsByTagName("phase").getLength() == 0 ? "" : text(execution, "phase");
            if (NOT_FOR_SERVING.contains(id) || phase.contains("test")) {
                continue;
            }
            NodeList goals = execution.getElementsByTagName("goal");      // none: a default execution moved to another phase
            for (int g = 0; g < goals.getLength(); g++) {
                String goal = prefix + ":" + goals.item(g).getTextContent().trim() + "@" + id;
                assertTrue(launcher.contains(goal), "the launcher's build runs " + goal + " (pom.xml binds it)");
            }
        }
    }

    private static String text(Element parent, String tag) {
        return parent.getElementsByTagName(tag).item(0).getTextContent().trim();
    }
}
