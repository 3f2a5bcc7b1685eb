package wsjava.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.docs.TaskPages;

/**
 * The shell example at the top of docs/server.md, and the shell example of every task page in
 * docs/tasks, run as written: the serve line starts the server (on a free port instead of the one
 * shown), each other line runs in bash with ./wsjava standing for the same entry point, and each
 * does what the page says it does.
 */
@Timeout(120)
class ServerGuideShellExampleTest {

    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final String WSJAVA = "'" + JAVA + "' -cp '" + System.getProperty("java.class.path") + "' wsjava.cli.Main";

    /** The example's lines: the indented ./wsjava block after "Try a limit from a shell". */
    static List<String> exampleLines() throws Exception {
        String guide = Files.readString(Path.of("docs/server.md"));
        int at = guide.indexOf("Try a limit from a shell");
        assertTrue(at >= 0, "docs/server.md has its shell example");
        List<String> lines = new ArrayList<>();
        for (String line : guide.substring(at).split("\n", -1)) {
            if (line.startsWith("    ")) {
                lines.add(line.trim());
            } else if (!lines.isEmpty()) {
                break;
            }
        }
        return lines;
    }

    private static final class Ran {
        int exitCode;
        String out;
        String err;
    }

    private static Ran bash(String line) throws Exception {
        Path out = Files.createTempFile("wsjava-guide-out", ".txt");
        Path err = Files.createTempFile("wsjava-guide-err", ".txt");
        try {
            Process p = new ProcessBuilder("bash", "-c", line).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "finished in 60 s: " + line);
            Ran r = new Ran();
            r.exitCode = p.exitValue();
            r.out = Files.readString(out, StandardCharsets.UTF_8);
            r.err = Files.readString(err, StandardCharsets.UTF_8);
            return r;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void theShellExampleDoesWhatTheGuideSays() throws Exception {
        List<String> lines = exampleLines();
        assertEquals(3, lines.size(), "a serve line and two clients: " + lines);
        String serveLine = lines.get(0);
        assertTrue(serveLine.startsWith("./wsjava serve ") && serveLine.endsWith(" &"), serveLine);
        List<String> args = new ArrayList<>(Arrays.asList(serveLine.substring("./wsjava ".length(), serveLine.length() - 2).split("\\s+")));
        String shownPort = args.get(args.indexOf("--port") + 1);
        args.set(args.indexOf("--port") + 1, "0");
        List<String> command = new ArrayList<>(List.of(JAVA, "-cp", System.getProperty("java.class.path"), "wsjava.cli.Main"));
        command.addAll(args);
        Process serve = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String ready = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertTrue(ready != null && ready.startsWith("listening on ws://127.0.0.1:"), "serve said: " + ready);
            String url = ready.substring("listening on ".length());
            List<String> clients = lines.subList(1, lines.size()).stream()
                    .map(l -> l.replace("ws://127.0.0.1:" + shownPort + "/", url).replace("./wsjava", WSJAVA))
                    .collect(Collectors.toList());

            Ran hello = bash(clients.get(0));
            assertEquals(0, hello.exitCode, hello.err);
            assertEquals("hello\n", hello.out, "the first client prints the echo");

            Ran tooBig = bash(clients.get(1));
            assertEquals(1, tooBig.exitCode, "the second client exits with 1: " + tooBig.err);
            assertTrue(tooBig.err.startsWith("connection closed: 1009"), "the second client is closed with 1009: " + tooBig.err);
            assertEquals("", tooBig.out);
        } finally {
            serve.destroy();
            serve.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void everyTaskPagesShellExamplePrintsWhatThePageSays() throws Exception {
        int ran = 0;
        for (Path page : TaskPages.pages()) {
            String example = TaskPages.example(page, "sh");
            if (example == null) {
                continue;
            }
            List<String> lines = example.lines().map(String::trim).filter(l -> !l.isEmpty()).collect(Collectors.toList());
            String serveLine = lines.get(0);
            assertTrue(serveLine.startsWith("./wsjava serve") && serveLine.endsWith(" &"), page + " starts a server first: " + serveLine);
            List<String> args = new ArrayList<>(Arrays.asList(serveLine.substring("./wsjava ".length(), serveLine.length() - 2).trim().split("\\s+")));
            String shownPort = "20580";         // serve's default
            if (args.contains("--port")) {
                shownPort = args.get(args.indexOf("--port") + 1);
                args.set(args.indexOf("--port") + 1, "0");
            } else {
                args.addAll(List.of("--port", "0"));
            }
            List<String> command = new ArrayList<>(List.of(JAVA, "-cp", System.getProperty("java.class.path"), "wsjava.cli.Main"));
            command.addAll(args);
            Process serve = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                String ready = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8)).readLine();
                assertTrue(ready != null && ready.startsWith("listening on ws://127.0.0.1:"), page + ": serve said: " + ready);
                String url = ready.substring("listening on ".length());
                StringBuilder printed = new StringBuilder();
                for (String line : lines.subList(1, lines.size())) {
                    Ran client = bash(line.replace("ws://127.0.0.1:" + shownPort + "/", url).replace("./wsjava", WSJAVA));
                    assertEquals(0, client.exitCode, page + ": " + line + ": " + client.err);
                    printed.append(client.out);
                }
                List<String> says = TaskPages.saysItPrints(Files.readString(page));
                assertTrue(!says.isEmpty(), page + " says what its example prints");
                assertEquals(says, printed.toString().lines().collect(Collectors.toList()), page + ": what the example prints");
            } finally {
                serve.destroy();
                serve.waitFor(10, TimeUnit.SECONDS);
            }
            ran++;
        }
        assertTrue(ran >= 1, "the task pages' shell examples were found");
    }
}
