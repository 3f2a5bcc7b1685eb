package wsjava.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * .github/workflows/wl.yml runs the WL acceptance run on a real Wolfram Engine once the repository
 * has a licence. No engine exists here, so the workflow is checked as text: it parses, takes the
 * licence from the secret wolframscript activates from, says when it skipped, runs the README's
 * verify command in Wolfram's container, and uploads the report Verify.wls writes.
 */
class EngineWorkflowTest {

    private static final Path WORKFLOW = Path.of(".github/workflows/wl.yml");
    static final String SECRET = "WOLFRAMSCRIPT_ENTITLEMENTID";

    @Test
    void theWorkflowDoesWhatTheReadmeSays() throws Exception {
        List<String> problems = problems(Files.readString(WORKFLOW), Files.readString(Path.of("README.md")),
                Files.readString(Path.of("wl/verify/Verify.wls")));
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void aWorkflowWithoutTheSecretOrTheCommandIsRefused() throws Exception {
        String workflow = Files.readString(WORKFLOW);
        String readme = Files.readString(Path.of("README.md"));
        String verify = Files.readString(Path.of("wl/verify/Verify.wls"));
        assertTrue(problems(workflow.replace(SECRET, "SOME_OTHER_SECRET"), readme, verify).stream()
                .anyMatch(p -> p.contains(SECRET)), "a workflow that names another secret is refused");
        assertTrue(problems(workflow.replace("./wsjava verify", "wolframscript -file wl/verify/Verify.wls"), readme, verify).stream()
                .anyMatch(p -> p.contains("./wsjava verify")), "a workflow that does not run the README's command is refused");
        assertTrue(problems(workflow.replace("skipped", "done"), readme, verify).stream()
                .anyMatch(p -> p.contains("skipped")), "a workflow that skips silently is refused");
        assertEquals(1, problems("jobs: [unclosed", readme, verify).size(), "YAML that does not parse is refused");
    }

    @SuppressWarnings("unchecked")
    static List<String> problems(String workflowText, String readme, String verify) {
        List<String> problems = new ArrayList<>();
        Map<String, Object> workflow;
        try {
            workflow = new Yaml().load(workflowText);
        } catch (RuntimeException e) {
            return List.of("the workflow does not parse: " + e.getMessage().lines().findFirst().orElse(""));
        }
        Map<String, Object> jobs = (Map<String, Object>) workflow.getOrDefault("jobs", Map.of());
        Map<String, Object> verifyJob = (Map<String, Object>) jobs.getOrDefault("verify", Map.of());
        Map<String, Object> container = (Map<String, Object>) verifyJob.getOrDefault("container", Map.of());
        if (!String.valueOf(container.get("image")).startsWith("wolframresearch/wolframengine")) {
            problems.add("the verify job does not run in the wolframresearch/wolframengine container");
        }
        Map<String, Object> env = (Map<String, Object>) verifyJob.getOrDefault("env", Map.of());
        if (!String.valueOf(env.get(SECRET)).equals("${{ secrets." + SECRET + " }}")) {
            problems.add("the verify job does not pass the secret " + SECRET + " as the variable wolframscript activates from");
        }
        if (!String.valueOf(verifyJob.get("if")).contains("needs.licence.outputs.present")) {
            problems.add("the verify job does not depend on whether the licence is there");
        }
        String licenceJob = String.valueOf(jobs.get("licence"));
        if (!licenceJob.contains("secrets." + SECRET) || !licenceJob.contains("::notice") || !licenceJob.contains("skipped")) {
            problems.add("without the secret the workflow must say plainly that it skipped (a ::notice naming it)");
        }
        String verifyCommand = readme.contains("./wsjava verify") ? "./wsjava verify" : null;
        List<Map<String, Object>> steps = (List<Map<String, Object>>) verifyJob.getOrDefault("steps", List.of());
        if (verifyCommand == null || steps.stream().noneMatch(s -> verifyCommand.equals(String.valueOf(s.get("run")).trim()))) {
            problems.add("no step runs the README's verify command, ./wsjava verify");
        }
        boolean uploads = steps.stream().anyMatch(s -> String.valueOf(s.get("uses")).startsWith("actions/upload-artifact")
                && String.valueOf(s.get("with")).contains("target/verify-report.txt"));
        if (!uploads || !verify.contains("\"target\", \"verify-report.txt\"")) {
            problems.add("the report Verify.wls writes (target/verify-report.txt) is not uploaded");
        }
        return problems;
    }
}
