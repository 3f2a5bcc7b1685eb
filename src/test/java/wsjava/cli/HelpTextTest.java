package wsjava.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.Version;
import wsjava.server.ServerConfig;
import wsjava.options.ServerOptions;

/**
 * The help texts: the launcher prints them without building, and they are the Java's own; every
 * option is in its command's help; the defaults they print are the real ones.
 */
@Timeout(120)
class HelpTextTest {

    private static final Path BENCH_HELP = Path.of("bench", "src", "main", "resources", "wsjava", "bench", "help.txt");

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "finished: " + List.of(command));
        assertEquals(0, p.exitValue(), "exit code of " + List.of(command));
        return out;
    }

    private static String java(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "wsjava.cli.Main"));
        command.addAll(List.of(args));
        return run(command.toArray(new String[0]));
    }

    /** The launcher, told to use a JVM that does not exist: it answers only if it needs no build and no Java. */
    private static String launcher(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("env", "JAVA_HOME=/nonexistent", "PATH=/usr/bin:/bin", Path.of("wsjava").toAbsolutePath().toString()));
        command.addAll(List.of(args));
        return run(command.toArray(new String[0]));
    }

    @Test
    void theLauncherPrintsTheJavasHelpWithoutBuildingOrJava() throws Exception {
        for (String[] args : List.of(new String[] {"--help"}, new String[] {"-h"}, new String[] {"help"}, new String[] {},
                new String[] {"serve", "--help"}, new String[] {"serve", "--port", "1", "-h"}, new String[] {"connect", "--help"})) {
            assertEquals(java(args), launcher(args), "./wsjava " + String.join(" ", args));
        }
        assertEquals("WSJava " + Version.VERSION + "\n", launcher("--version"));
        assertEquals(java("--version"), launcher("--version"));
        assertEquals(Files.readString(BENCH_HELP), launcher("bench", "--help"));
        assertEquals(Files.readString(BENCH_HELP), launcher("bench"));
        assertEquals(Files.readString(BENCH_HELP), launcher("bench", "echo", "--help"), "a help flag after a benchmark's name runs nothing");
        assertEquals(Files.readString(BENCH_HELP), launcher("bench", "attack", "--quick", "-h"));
    }

    @Test
    void wljsHelpIsAnAnswerNotAnError() throws Exception {
        assertTrue(run(Path.of("scripts", "wljs-extension.sh").toAbsolutePath().toString(), "--help").contains("wljs install"));
    }

    @Test
    void theMainHelpNamesEveryBenchCommand() throws Exception {
        Matcher usage = Pattern.compile("bench <([a-z|-]+)>").matcher(Files.readString(BENCH_HELP));
        assertTrue(usage.find());
        String main = HelpText.of("main");
        for (String command : usage.group(1).split("\\|")) {
            assertTrue(Pattern.compile("[ ,]" + Pattern.quote(command) + "[,\\s]").matcher(main).find(), "the main help names bench " + command);
        }
    }

    @Test
    void serveHelpListsExactlyTheOptionsServeTakes() {
        TreeSet<String> known = new TreeSet<>(List.of(ServerOptions.VALUE_OPTIONS));
        known.addAll(List.of(ServerOptions.FLAGS));
        known.addAll(ServeCommand.OWN_OPTIONS);
        TreeSet<String> listed = optionsListed(HelpText.of("serve"));
        assertEquals(known, listed);
    }

    @Test
    void connectHelpListsExactlyTheOptionsConnectTakes() {
        TreeSet<String> known = new TreeSet<>(List.of(ConnectCommand.VALUE_OPTIONS));
        known.addAll(List.of(ConnectCommand.FLAGS));
        assertEquals(known, optionsListed(HelpText.of("connect")));
    }

    private static TreeSet<String> optionsListed(String help) {
        TreeSet<String> listed = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^  (--[a-z-]+.*?)(?:  |$)").matcher(help);
        while (m.find()) {
            Matcher names = Pattern.compile("--([a-z][a-z-]*)").matcher(m.group(1));
            while (names.find()) {
                listed.add(names.group(1));
            }
        }
        return listed;
    }

    /** Each "(default X)" given as a value: setting X changes nothing in a fresh config. */
    @Test
    void theDefaultsServeHelpPrintsAreTheRealOnes() throws Exception {
        Matcher m = Pattern.compile("(?m)^  --([a-z-]+) \\S+.*?\\(default ([^:;)\\s]+)[;)]").matcher(HelpText.of("serve"));
        int checked = 0;
        while (m.find()) {
            ServerConfig set = new ServerConfig();
            ServerOptions.apply(set, m.group(1), m.group(2));
            assertEquals(describe(new ServerConfig()), describe(set), "--" + m.group(1) + " " + m.group(2) + " is the default");
            checked++;
        }
        assertTrue(checked >= 20, "defaults checked: " + checked);
    }

    private static String describe(ServerConfig config) throws Exception {
        StringBuilder all = new StringBuilder();
        for (Method getter : ServerConfig.class.getMethods()) {
            if (getter.getParameterCount() == 0 && !Modifier.isStatic(getter.getModifiers()) && getter.getDeclaringClass() == ServerConfig.class
                    && !getter.getReturnType().isArray() && !getter.getName().equals("copy")) {
                all.append(getter.getName()).append('=').append(getter.invoke(config)).append('\n');
            }
        }
        return all.toString();
    }

    @Test
    void sizesPrintWithUnitsAndNoHelpNamesAnIssue() throws Exception {
        for (String text : List.of(HelpText.of("main"), HelpText.of("serve"), HelpText.of("connect"), Files.readString(BENCH_HELP))) {
            assertFalse(Pattern.compile("(?i)issue \\d").matcher(text).find(), text);
            assertFalse(Pattern.compile("default \\d{6,}").matcher(text).find(), "a raw byte count: " + text);
        }
    }
}
