package wsjava.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The project's public address is one property, the POM's wsjava.home: both POMs' url and scm, the
 * paclet's URL and SourceControlURL (PacletReleaseTest), and the README's install lines, which come
 * on its first screen with the POM's coordinates and version.
 */
@Timeout(30)
class PublicAddressTest {

    private static final String HOME = ProjectPom.LIBRARY.property("wsjava.home");
    private static final String VERSION = ProjectPom.LIBRARY.version();
    /** What a reader sees before scrolling: the README's first lines. */
    private static final int FIRST_SCREEN_LINES = 50;

    @Test
    void bothPomsTakeTheirAddressFromTheOneProperty() {
        assertTrue(HOME.startsWith("https://"), HOME);
        assertEquals(HOME, ProjectPom.REDIS.property("wsjava.home"), "redis/pom.xml's wsjava.home");
        assertEquals(VERSION, ProjectPom.REDIS.version(), "redis/pom.xml's version");
        for (ProjectPom pom : List.of(ProjectPom.LIBRARY, ProjectPom.REDIS)) {
            for (String path : List.of("url", "scm/url", "developers/developer/organizationUrl")) {
                assertEquals("${wsjava.home}", pom.text(path), path + " is the property, not a copy of it");
                assertEquals(HOME, pom.resolved(path), path);
            }
            assertEquals("scm:git:" + HOME + ".git", pom.resolved("scm/connection"));
            assertEquals("scm:git:" + HOME + ".git", pom.resolved("scm/developerConnection"));
        }
    }

    @Test
    void theReadmesFirstScreenHasTheInstallLines() throws IOException {
        List<String> problems = problems(Files.readString(Path.of("README.md")));
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void aReadmeWithAnotherAddressOrVersionOrNoCoordinatesIsRefused() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        assertTrue(problems(readme.replace(HOME, "https://github.com/someone/wsjava")).stream().anyMatch(p -> p.contains("PacletInstall")));
        assertTrue(problems(readme.replace("v" + VERSION + "/", "v0.0.1/")).stream().anyMatch(p -> p.contains("PacletInstall")));
        assertTrue(problems(readme.replace("<artifactId>wsjava</artifactId>", "<artifactId>ws</artifactId>")).stream()
                .anyMatch(p -> p.contains("Maven")));
        assertTrue(problems(readme.replace("io.wsjava:wsjava-redis:", "io.wsjava:redis:")).stream().anyMatch(p -> p.contains("Redis")));
        assertTrue(problems("# WSJava\n\n" + "text\n".repeat(FIRST_SCREEN_LINES) + readme).stream()
                .anyMatch(p -> p.contains("first screen")));
        assertTrue(problems(readme + "\nSee https://github.com/wsjava/other.\n").stream().anyMatch(p -> p.contains("other")));
    }

    static List<String> problems(String readme) {
        List<String> problems = new ArrayList<>();
        String group = ProjectPom.LIBRARY.text("groupId");
        String artifact = ProjectPom.LIBRARY.text("artifactId");
        String redis = ProjectPom.REDIS.text("artifactId");
        String firstScreen = String.join("\n", readme.lines().limit(FIRST_SCREEN_LINES).toArray(String[]::new));
        String paclet = "PacletInstall[\"" + HOME + "/releases/download/v" + VERSION + "/WSJava-" + VERSION + ".paclet\"]";
        if (!firstScreen.contains(paclet)) {
            problems.add("the README's first screen has no " + paclet);
        }
        String maven = "<groupId>" + group + "</groupId>\n  <artifactId>" + artifact + "</artifactId>\n  <version>" + VERSION + "</version>";
        if (!firstScreen.contains(maven)) {
            problems.add("the README's first screen has no Maven dependency " + group + ":" + artifact + ":" + VERSION);
        }
        if (!firstScreen.contains("implementation(\"" + group + ":" + artifact + ":" + VERSION + "\")")) {
            problems.add("the README's first screen has no Gradle line for " + group + ":" + artifact + ":" + VERSION);
        }
        if (!firstScreen.contains(group + ":" + redis + ":" + VERSION)) {
            problems.add("the README's first screen has no Redis module coordinates " + group + ":" + redis + ":" + VERSION);
        }
        // Any other address under the project's owner is a copy that went stale.
        String owner = HOME.substring(0, HOME.lastIndexOf('/') + 1);
        Matcher m = Pattern.compile(Pattern.quote(owner) + "[^\\s)\\]\"'`<>]*").matcher(readme);
        while (m.find()) {
            if (!m.group().equals(HOME) && !m.group().startsWith(HOME + "/")) {
                problems.add("the README links " + m.group() + ", not under " + HOME);
            }
        }
        return problems;
    }
}
