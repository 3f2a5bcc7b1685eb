package wsjava.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.yaml.snakeyaml.Yaml;

/**
 * .github/workflows/release.yml cannot run here, so it is checked as text: on a v* tag it runs the
 * tests, then the same ./wsjava release a developer runs, then attaches dist/ to the GitHub
 * Release; and the launcher's release command is scripts/release.sh.
 */
@Timeout(30)
class ReleaseWorkflowTest {

    private static final Path WORKFLOW = Path.of(".github/workflows/release.yml");

    @Test
    void onAVersionTagTheTestsThenTheReleaseCommandThenTheUpload() throws IOException {
        List<String> problems = problems(Files.readString(WORKFLOW));
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void theLauncherRunsTheReleaseScript() throws IOException {
        String launcher = Files.readString(Path.of("wsjava"));
        assertTrue(launcher.matches("(?s).*\\n  release\\)\\n    shift\\n    exec \"\\$ROOT/scripts/release\\.sh\" \"\\$@\"\\n.*"),
                "./wsjava release runs scripts/release.sh");
        assertTrue(Files.isExecutable(Path.of("scripts", "release.sh")));
    }

    @Test
    void aWorkflowThatSkipsAStepOrReordersThemIsRefused() throws IOException {
        String workflow = Files.readString(WORKFLOW);
        assertTrue(problems(workflow.replace("run: ./wsjava test --all", "run: echo no tests")).stream()
                .anyMatch(p -> p.contains("./wsjava test")), "no tests");
        assertTrue(problems(workflow.replace("run: ./wsjava test --all", "run: ./wsjava test")).stream()
                .anyMatch(p -> p.contains("./wsjava test --all")), "the default tests only, without the harness smokes");
        assertTrue(problems(workflow.replace("run: ./wsjava release", "run: mvn package")).stream()
                .anyMatch(p -> p.contains("./wsjava release")), "another build");
        assertTrue(problems(workflow.replace("files: dist/*", "files: target/*.jar")).stream()
                .anyMatch(p -> p.contains("dist/")), "another upload");
        assertTrue(problems(workflow.replace("\"v*\"", "\"release-*\"")).stream()
                .anyMatch(p -> p.contains("v*")), "another trigger");
        String swapped = workflow.replace("run: ./wsjava test --all", "run: PLACEHOLDER")
                .replace("run: ./wsjava release", "run: ./wsjava test --all").replace("run: PLACEHOLDER", "run: ./wsjava release");
        assertTrue(problems(swapped).stream().anyMatch(p -> p.contains("after")), "release before the tests");
        assertEquals(1, problems("jobs: [unclosed").size(), "YAML that does not parse is refused");
    }

    @SuppressWarnings("unchecked")
    static List<String> problems(String text) {
        Map<String, Object> workflow;
        try {
            workflow = new Yaml().load(text);
        } catch (RuntimeException e) {
            return List.of("the workflow does not parse: " + e.getMessage().lines().findFirst().orElse(""));
        }
        List<String> problems = new ArrayList<>();
        // YAML 1.1 (SnakeYAML) reads the key `on` as the boolean true.
        Object on = workflow.containsKey("on") ? workflow.get("on") : workflow.get(Boolean.TRUE);
        Object push = on instanceof Map ? ((Map<String, Object>) on).get("push") : null;
        Object tags = push instanceof Map ? ((Map<String, Object>) push).get("tags") : null;
        if (!(tags instanceof List) || !((List<Object>) tags).contains("v*")) {
            problems.add("the workflow does not run on a pushed v* tag: on = " + on);
        }
        Map<String, Object> jobs = (Map<String, Object>) workflow.getOrDefault("jobs", Map.of());
        Map<String, Object> job = (Map<String, Object>) jobs.getOrDefault("release", Map.of());
        List<Map<String, Object>> steps = (List<Map<String, Object>>) job.getOrDefault("steps", List.of());
        int tests = index(steps, "./wsjava test --all");      // a release runs every test, as CI does
        int release = index(steps, "./wsjava release");
        int upload = -1;
        for (int i = 0; i < steps.size(); i++) {
            Map<String, Object> step = steps.get(i);
            Object with = step.get("with");
            boolean action = String.valueOf(step.get("uses")).startsWith("softprops/action-gh-release@")
                    && with instanceof Map && "dist/*".equals(((Map<String, Object>) with).get("files"));
            boolean gh = String.valueOf(step.get("run")).matches("(?s).*gh release upload .*dist/\\*.*");
            if (action || gh) {
                upload = i;
            }
        }
        if (tests < 0) {
            problems.add("the release job has no step that runs ./wsjava test --all");
        }
        if (release < 0) {
            problems.add("the release job has no step that runs ./wsjava release");
        }
        if (upload < 0) {
            problems.add("the release job does not attach dist/* to the GitHub Release");
        }
        if (tests >= 0 && release >= 0 && release < tests) {
            problems.add("./wsjava release runs before the tests, not after them");
        }
        if (release >= 0 && upload >= 0 && upload < release) {
            problems.add("dist/ is attached before ./wsjava release builds it, not after");
        }
        return problems;
    }

    /** The step whose whole command is {@code command} and whose failure fails the job; -1 when none. */
    private static int index(List<Map<String, Object>> steps, String command) {
        for (int i = 0; i < steps.size(); i++) {
            Map<String, Object> step = steps.get(i);
            if (command.equals(String.valueOf(step.get("run")).trim()) && !Boolean.TRUE.equals(step.get("continue-on-error"))) {
                return i;
            }
        }
        return -1;
    }
}
