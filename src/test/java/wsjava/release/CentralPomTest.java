package wsjava.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * What Maven Central requires of both POMs (the library's and the Redis module's), checked here
 * because mvn -Prelease verify builds everything again (well over the test run's budget; the
 * release workflow runs it): coordinates, name, description, url, a licence, a developer, scm,
 * sources and Javadoc jars, and a release profile that signs and publishes only when a key is named.
 */
@Timeout(30)
class CentralPomTest {

    private static final List<String> REQUIRED = List.of("groupId", "artifactId", "version", "name", "description", "url",
            "licenses/license/name", "licenses/license/url", "developers/developer/name",
            "scm/url", "scm/connection", "scm/developerConnection");

    @Test
    void bothPomsHaveWhatCentralRequires() {
        List<String> problems = new ArrayList<>();
        problems.addAll(problems("pom.xml", ProjectPom.LIBRARY));
        problems.addAll(problems("redis/pom.xml", ProjectPom.REDIS));
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void aPomWithoutADescriptionOrSigningIsRefused(@TempDir Path dir) throws Exception {
        String pom = Files.readString(Path.of("pom.xml"));
        Files.writeString(dir.resolve("a.xml"), pom.replaceFirst("<description>[^<]*</description>", ""));
        assertTrue(problems("a.xml", ProjectPom.read(dir.resolve("a.xml"))).stream().anyMatch(p -> p.contains("description")));
        Files.writeString(dir.resolve("b.xml"), pom.replace("maven-gpg-plugin", "maven-nothing-plugin"));
        assertTrue(problems("b.xml", ProjectPom.read(dir.resolve("b.xml"))).stream().anyMatch(p -> p.contains("maven-gpg-plugin")));
        Files.writeString(dir.resolve("c.xml"), pom.replace("<skip>${wsjava.unsigned}</skip>", "<skip>false</skip>"));
        assertTrue(problems("c.xml", ProjectPom.read(dir.resolve("c.xml"))).stream().anyMatch(p -> p.contains("skip")));
        assertEquals(List.of(), problems("pom.xml", ProjectPom.LIBRARY));
    }

    static List<String> problems(String name, ProjectPom pom) {
        List<String> problems = new ArrayList<>();
        for (String path : REQUIRED) {
            String text = pom.resolved(path);
            if (text == null || text.isBlank() || text.contains("${")) {
                problems.add(name + ": no " + path + " (Central requires it): " + text);
            }
        }
        for (String plugin : List.of("maven-source-plugin", "maven-javadoc-plugin")) {
            if (plugin(pom.element("build/plugins"), plugin) == null) {
                problems.add(name + ": no " + plugin + " in the build (Central requires sources and Javadoc jars)");
            }
        }
        if (!"true".equals(pom.property("wsjava.unsigned"))) {
            problems.add(name + ": wsjava.unsigned is not true by default, so a build without a key would try to sign");
        }
        Element release = profile(pom, "release");
        Element plugins = release == null ? null : (Element) release.getElementsByTagName("plugins").item(0);
        Element gpg = plugin(plugins, "maven-gpg-plugin");
        Element central = plugin(plugins, "central-publishing-maven-plugin");
        if (gpg == null) {
            problems.add(name + ": the release profile has no maven-gpg-plugin");
        } else if (!"${wsjava.unsigned}".equals(text(gpg, "skip"))) {
            problems.add(name + ": maven-gpg-plugin's skip is not ${wsjava.unsigned}: " + text(gpg, "skip"));
        }
        if (central == null || !"org.sonatype.central".equals(text(central, "groupId"))) {
            problems.add(name + ": the release profile has no org.sonatype.central:central-publishing-maven-plugin");
        } else if (!"${wsjava.unsigned}".equals(text(central, "skipPublishing"))) {
            problems.add(name + ": central-publishing-maven-plugin's skipPublishing is not ${wsjava.unsigned}");
        }
        Element signed = profile(pom, "release-signed");
        if (signed == null || !"gpg.keyname".equals(text(signed, "name"))
                || !"false".equals(text(signed, "wsjava.unsigned"))) {
            problems.add(name + ": no release-signed profile that gpg.keyname activates and that sets wsjava.unsigned to false");
        }
        return problems;
    }

    private static Element profile(ProjectPom pom, String id) {
        for (Element profile : ProjectPom.children(pom.element("profiles"), "profile")) {
            if (id.equals(text(profile, "id"))) {
                return profile;
            }
        }
        return null;
    }

    private static Element plugin(Element plugins, String artifactId) {
        for (Element plugin : ProjectPom.children(plugins, "plugin")) {
            if (artifactId.equals(text(plugin, "artifactId"))) {
                return plugin;
            }
        }
        return null;
    }

    /** The first descendant element's text with that tag, or null. */
    private static String text(Element parent, String tag) {
        return parent.getElementsByTagName(tag).getLength() == 0 ? null
                : parent.getElementsByTagName(tag).item(0).getTextContent().trim();
    }
}
