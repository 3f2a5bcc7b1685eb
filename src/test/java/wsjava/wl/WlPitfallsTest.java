package wsjava.wl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.testing.ExternalTools;

/** The WL sources are free of the known traps, and each check finds its trap when one is planted. */
@Timeout(60)
class WlPitfallsTest {

    private static List<WlPitfalls.Source> projectSources() {
        List<WlPitfalls.Source> all = new ArrayList<>();
        for (Path file : WlSources.files()) {
            String name = ExternalTools.PROJECT.relativize(file).toString();
            String text = WlSources.read(file);
            boolean kernel = name.startsWith("paclet/WSJava/Kernel/");
            if (name.endsWith(".wln")) {
                List<String> cells = WlSources.notebookCode(text);
                for (int i = 0; i < cells.size(); i++) {
                    all.add(new WlPitfalls.Source(name + "#cell" + (i + 1), cells.get(i), false));
                }
            } else {
                all.add(new WlPitfalls.Source(name, text, kernel));
            }
        }
        return all;
    }

    @Test
    void theProjectsWlHasNoKnownTrap() {
        List<WlPitfalls.Source> sources = projectSources();
        assertTrue(sources.stream().filter(s -> s.kernel).count() >= 7, "the Kernel files were found");
        List<String> problems = WlPitfalls.all(sources);
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    private static List<String> planted(String name, String wl) {
        return WlPitfalls.all(List.of(new WlPitfalls.Source(name, wl, name.startsWith("paclet/WSJava/Kernel/"))));
    }

    private static void assertFinds(String expected, String name, String wl) {
        List<String> found = planted(name, wl);
        assertEquals(1, found.size(), String.join("\n", found));
        assertTrue(found.get(0).contains(expected), found.get(0));
    }

    @Test
    void aSetRuleOnAModuleLocalHandlerIsFound() {
        assertFinds("UpValue of the Module symbol handler", "paclet/WSJava/Kernel/X.wl",
                "make[] := Module[{handler, other = 1},\n  handler /: Set[handler[k_String], v_] := store[k, v];\n  handler]");
    }

    @Test
    void byteArrayToStringAsAUtf8TestIsFound() {
        assertFinds("never fails on invalid UTF-8", "wl/x.wl", "text = Quiet[ByteArrayToString[bytes, \"UTF-8\"]]");
    }

    @Test
    void scriptCommandLineInThePacletIsFound() {
        assertFinds("$ScriptCommandLine", "paclet/WSJava/Kernel/X.wl", "interactiveQ[] := Length[$ScriptCommandLine] == 0;");
        assertTrue(planted("wl/examples/x.wls", "port = $ScriptCommandLine[[2]]").isEmpty(), "scripts may read their arguments");
    }

    @Test
    void anUncheckedJavaStartIsFound() {
        assertFinds("LoadJavaClass is not checked", "paclet/WSJava/Kernel/X.wl", "ensure[] := (AddToClassPath[d]; LoadJavaClass[c]; ok)");
        assertTrue(planted("paclet/WSJava/Kernel/Y.wl", "loaded = Quiet[Check[LoadJavaClass[c], $Failed]]").isEmpty());
    }

    @Test
    void dynamicInANotebookIsFound() {
        assertFinds("no Dynamic", "notebooks/x.wln#cell1", "Dynamic[Refresh[x, UpdateInterval -> 1]]".replace("UpdateInterval -> 1", "2"));
        assertTrue(planted("notebooks/x.wln#cell2", "(* no Dynamic here *) Refresh[x, 1]").isEmpty(), "comments do not count");
    }

    @Test
    void complementInThePacletIsFound() {
        assertFinds("Complement reorders", "paclet/WSJava/Kernel/X.wl", "clients = Complement[clients, failed]");
    }

    @Test
    void aJLinkCallOutsideJavaCallIsFound() {
        assertFinds("outside javaCall", "paclet/WSJava/Kernel/X.wl", "n = WSJavaLink`poll[h, 0, 10]");
        assertFinds("outside javaCall", "paclet/WSJava/Kernel/X.wl", "n = If[ok, WSJavaLink`poll[h, 0, 10], 0]");
        assertTrue(planted("paclet/WSJava/Kernel/X.wl", "n = serverCall[h, WSJavaLink`poll[h, 0, 10]]; "
                + "m = javaCallOn[link, WSJavaLink`version[]]; v = javaCall[WSJavaLink`version[]]").isEmpty());
        assertFinds("javaCall does not PreemptProtect", "paclet/WSJava/Kernel/Java.wl",
                "javaCall[call_] := Module[{r},\n  r = Quiet[Check[call, $javaFailed]];\n  r]");
        assertFinds("javaCallOn does not PreemptProtect", "paclet/WSJava/Kernel/Java.wl",
                "javaCallOn[link_, call_] := With[{ready = ensureJava[]}, PreemptProtect[javaInvoke[call]]]");
    }

    @Test
    void aNamedSlotWithoutParametersIsFound() {
        assertFinds("named slot but no \"MessageParameters\"", "paclet/WSJava/Kernel/X.wl",
                "ok[n_] := Success[\"Sent\", <|\"MessageTemplate\" -> \"Sent `ByteCount` bytes.\", \"ByteCount\" -> n|>]");
        assertTrue(planted("paclet/WSJava/Kernel/X.wl", "ok[n_] := Success[\"Sent\", <|\"MessageTemplate\" -> \"Sent `ByteCount` bytes.\", "
                + "\"MessageParameters\" -> <|\"ByteCount\" -> n|>|>]").isEmpty());
    }

    @Test
    void aTopLevelWithOutsidePrivateIsFound() {
        assertFinds("top-level With outside Begin", "paclet/WSJava/Kernel/X.wl",
                "BeginPackage[\"X`\"];\nEndPackage[];\nWith[{dir = DirectoryName[$InputFileName]}, Get[dir]];");
        assertTrue(planted("paclet/WSJava/Kernel/X.wl", "BeginPackage[\"X`\"];\nBegin[\"`Private`\"];\nWith[{x = 1}, f[x]];\nEnd[];").isEmpty());
    }

    @Test
    void aTaskThatIsNeverRemovedIsFound() {
        assertFinds("never removes", "paclet/WSJava/Kernel/X.wl", "start[h_] := SessionSubmit[ScheduledTask[drain[h], 0.01]]");
    }

    @Test
    void optionsThatAreNeverCheckedAreFound() {
        assertFinds("never checks for unknown options", "paclet/WSJava/Kernel/X.wl",
                "Options[WSJavaThing] = {\"Port\" -> 1};\nWSJavaThing[x_, opts : OptionsPattern[]] := OptionValue[\"Port\"]");
        assertTrue(planted("paclet/WSJava/Kernel/Y.wl", "WSJavaThing[x_, opts : OptionsPattern[]] := "
                + "If[FailureQ[unknownOptionFailure[WSJavaThing, {opts}]], $Failed, x]").isEmpty());
    }

    @Test
    void aJavaExceptionFoundInTheMessageListIsFound() {
        assertFinds("outside Check[call, fail, {Java::excptn}]", "paclet/WSJava/Kernel/Java.wl",
                "text = If[MemberQ[issued, HoldForm[Java::excptn]], GetJavaException[], refused]");
        assertTrue(planted("paclet/WSJava/Kernel/Java.wl",
                "r = Quiet[Check[Check[call, (v = 1; $f), {Java::excptn}], (If[v === None, v = 2]; $f)]]").isEmpty());
    }

    // ---- BeginPackage and Begin, each a top-level expression of its own ----

    @Test
    void everyBeginPackageAndBeginIsATopLevelExpression() {
        List<String> problems = new ArrayList<>();
        int files = 0;
        for (Path file : WlSources.files()) {
            String name = ExternalTools.PROJECT.relativize(file).toString();
            String text = WlSources.read(file);
            if (name.endsWith(".wln")) {
                List<String> cells = WlSources.notebookCode(text);
                for (int i = 0; i < cells.size(); i++) {
                    problems.addAll(WlContextCalls.notAtTopLevel(name + "#cell" + (i + 1), cells.get(i)));
                }
            } else {
                problems.addAll(WlContextCalls.notAtTopLevel(name, text));
                files++;
            }
        }
        assertTrue(files >= 30, "the .wl, .wls and .wlt files were found: " + files);
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    private static String planted(String resource) throws IOException {
        try (var in = WlPitfallsTest.class.getResourceAsStream("/wsjava/wl/planted/" + resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aBeginPackageInsideAnIfIsFound() throws IOException {
        List<String> found = WlContextCalls.notAtTopLevel("NestedBeginPackage.wl", planted("NestedBeginPackage.wl"));
        assertEquals(3, found.size(), String.join("\n", found));
        assertTrue(found.get(0).contains("BeginPackage[CoffeeLiqueur`Misc`Events`] inside the top-level expression If("), found.get(0));
        assertTrue(found.get(1).contains("BeginPackage[CoffeeLiqueur`WebSocketHandler`]"), found.get(1));
        assertTrue(found.get(2).contains("Begin[`Private`]"), found.get(2));
    }

    @Test
    void codeOnBeginPackagesLineIsFound() throws IOException {
        List<String> found = WlContextCalls.notAtTopLevel("BeginPackageWithCode.wl", planted("BeginPackageWithCode.wl"));
        assertEquals(List.of("BeginPackageWithCode.wl:5: BeginPackage with more code on its line (one expression with it,"
                + " parsed before it runs)"), found);
    }

    @Test
    void packageBlocksAtTopLevelPass() {
        assertTrue(WlContextCalls.notAtTopLevel("X.wl", "BeginPackage[\"X`\", {\"JLink`\"}];\nf::usage = \"f\";\n"
                + "Begin[\"`Private`\"];\nf[x_] := x;\nEnd[]; EndPackage[];\nIf[c, Get[\"Y.wl\"]];\n").isEmpty());
    }

    // ---- no page on WLJS's kernel ports ----

    @Test
    void wljsListenersServeNoPage() throws IOException {
        List<String> problems = new ArrayList<>(WlPitfalls.pageOnWljsPorts("WLJSExtension.wl",
                WlSources.read(ExternalTools.PROJECT.resolve("paclet/WSJava/Kernel/WLJSExtension.wl"))));
        java.util.regex.Matcher block = java.util.regex.Pattern.compile("(?ms)^```wl\\s*\\n(.*?)^```")
                .matcher(java.nio.file.Files.readString(ExternalTools.PROJECT.resolve("docs/wljs.md")));
        int snippets = 0;
        while (block.find()) {
            if (block.group(1).contains("WSJavaListen")) {
                snippets++;
                problems.addAll(WlPitfalls.pageOnWljsPorts("docs/wljs.md snippet " + snippets, block.group(1)));
            }
        }
        assertTrue(snippets >= 2, "the by-hand snippets were found");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void aWljsListenerWithThePageIsFound() {
        assertEquals(List.of("X.wl:2: a WSJavaListen for WLJS without \"Page\" -> None"), WlPitfalls.pageOnWljsPorts("X.wl",
                "(* \"Page\" -> None *)\nserver = Quiet[WSJavaListen[{host, port}, ws, \"MaxMessageSize\" -> 16777216]];"));
    }
}
