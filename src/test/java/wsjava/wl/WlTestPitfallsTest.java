package wsjava.wl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import wsjava.testing.ExternalTools;

/**
 * The WL that checks the paclet (tests, Verify.wls) and the WL users paste (README and guide
 * snippets) are free of the defects a review found in them, and each check finds its defect
 * when one is planted.
 */
@org.junit.jupiter.api.Timeout(60)
class WlTestPitfallsTest {

    private static List<WlTestPitfalls.Source> projectSources() {
        List<WlTestPitfalls.Source> all = new ArrayList<>();
        for (Path file : WlSources.files()) {
            String name = ExternalTools.PROJECT.relativize(file).toString();
            if (!name.endsWith(".wln")) {
                all.add(new WlTestPitfalls.Source(name, WlSources.read(file)));
            }
        }
        return all;
    }

    private static Set<String> messagedTags() {
        List<WlTestPitfalls.Source> kernel = projectSources().stream()
                .filter(s -> s.name.startsWith("paclet/WSJava/Kernel/")).collect(Collectors.toList());
        return WlTestPitfalls.messagedFailureTags(kernel);
    }

    @Test
    void theTestsAndVerifyHaveNoKnownDefect() {
        List<WlTestPitfalls.Source> sources = projectSources();
        assertTrue(sources.stream().filter(WlTestPitfalls.Source::isTest).count() >= 10, "the test files were found");
        List<String> problems = WlTestPitfalls.all(sources, messagedTags());
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void theMessagedFailureTagsAreFoundInThePaclet() {
        Set<String> tags = messagedTags();
        assertTrue(tags.containsAll(Set.of("WSJavaBadArguments", "WSJavaJavaError", "WSJavaNotOpen", "WSJavaBadOption")), tags.toString());
        assertTrue(!tags.contains("WSJavaJavaGone") && !tags.contains("WSJavaIncompleteRequest"), "those come without a message: " + tags);
    }

    private static List<String> planted(String name, String wl) {
        return WlTestPitfalls.all(List.of(new WlTestPitfalls.Source(name, wl)), Set.of("WSJavaJavaError"));
    }

    private static void assertFinds(String expected, String name, String wl) {
        List<String> found = planted(name, wl);
        assertEquals(1, found.size(), String.join("\n", found));
        assertTrue(found.get(0).contains(expected), found.get(0));
    }

    @Test
    void anOriginWithoutItsPortIsFound() {
        assertFinds("without a port", "paclet/WSJava/Tests/X.wlt", "testConnect[s, \"Origin: http://127.0.0.1\\r\\n\"]");
        assertTrue(planted("paclet/WSJava/Tests/X.wlt", "testConnect[s, \"Origin: http://127.0.0.1:20560\\r\\n\"]; "
                + "testConnect[s, \"Origin: http://ok.example\\r\\n\"]").isEmpty());
    }

    @Test
    void anUnqualifiedJLinkFunctionInATestIsFound() {
        assertFinds("ReinstallJava without JLink`", "paclet/WSJava/Tests/X.wlt", "VerificationTest[ReinstallJava[]; 1, 1]");
        assertTrue(planted("paclet/WSJava/Tests/X.wlt", "VerificationTest[JLink`ReinstallJava[]; 1, 1]").isEmpty());
    }

    @Test
    void unboundedReadsAreFound() {
        assertFinds("ReadLine blocks", "wl/verify/Verify.wls", "line = ReadLine[process]");
        assertFinds("not guarded by If[SocketReadyQ", "paclet/WSJava/Tests/TestClient.wl", "reply = SocketReadMessage[socket]");
        assertFinds("TestReport without a TimeConstraint", "wl/verify/Verify.wls", "r = TestReport[file]");
        assertTrue(planted("paclet/WSJava/Tests/TestClient.wl", "If[SocketReadyQ[socket, 0.05], data = SocketReadMessage[socket]]; "
                + "r = TestReport[file, TimeConstraint -> 60]").isEmpty());
    }

    @Test
    void aServerATestLeavesAliveIsFound() {
        assertFinds("s = WSJavaListen[...] is never deleted in its test", "paclet/WSJava/Tests/X.wlt",
                "VerificationTest[Module[{s = WSJavaListen[0, \"DrainInterval\" -> None]}, s[\"Port\"] > 0], True]");
        assertFinds("$c = WSJavaConnect[...] is never deleted in this file", "paclet/WSJava/Tests/X.wlt",
                "$c = WSJavaConnect[url, \"DrainInterval\" -> None];\n\nVerificationTest[1, 1]");
        assertTrue(planted("paclet/WSJava/Tests/X.wlt", "VerificationTest[Module[{s = WSJavaListen[0, \"DrainInterval\" -> None], "
                + "a = WSJavaListen[0, \"DrainInterval\" -> None]}, DeleteObject[s]; DeleteObject /@ {a}; 1], 1]").isEmpty());
    }

    @Test
    void aTestThatExpectsNoMessageFromAMessagingFailureIsFound() {
        assertFinds("always comes with a message", "paclet/WSJava/Tests/X.wlt",
                "VerificationTest[javaCall[f[\"x\"]], Failure[\"WSJavaJavaError\", _], SameTest -> MatchQ]");
        assertTrue(planted("paclet/WSJava/Tests/X.wlt",
                "VerificationTest[javaCall[f[\"x\"]], Failure[\"WSJavaJavaError\", _], {WSJava::javaerr}, SameTest -> MatchQ]").isEmpty());
    }

    @Test
    void aGeneralStopMiscountIsFoundInAPlantedFile() throws IOException {
        String wlt;
        try (var in = WlTestPitfallsTest.class.getResourceAsStream("/wsjava/wl/planted/GeneralStopCount.wlt")) {
            wlt = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        List<String> found = planted("paclet/WSJava/Tests/GeneralStopCount.wlt", wlt);
        assertEquals(2, found.size(), String.join("\n", found));
        assertTrue(found.get(0).startsWith("paclet/WSJava/Tests/GeneralStopCount.wlt:4: expects WSJava::args 3 times without"
                + " General::stop right after the third"), found.get(0));
        assertTrue(found.get(1).startsWith("paclet/WSJava/Tests/GeneralStopCount.wlt:20: expects WSJava::args more than 3 times"),
                found.get(1));
    }

    @Test
    void aServerWhoseDrainerIsNotChosenIsFound() {
        assertFinds("without \"DrainInterval\"", "paclet/WSJava/Tests/X.wlt",
                "VerificationTest[Module[{s = WSJavaListen[0]}, DeleteObject[s]], Null]");
    }

    // ---- README and guide snippets ----

    private static Set<String> pacletSymbols() throws IOException {
        return WlTestPitfalls.usageSymbols(Files.readString(ExternalTools.PROJECT.resolve("paclet/WSJava/Kernel/WSJava.wl")));
    }

    private static List<Path> markdownFiles() throws IOException {
        List<Path> files = new ArrayList<>(List.of(ExternalTools.PROJECT.resolve("README.md")));
        Path docs = ExternalTools.PROJECT.resolve("docs");
        if (Files.isDirectory(docs)) {
            try (Stream<Path> walk = Files.walk(docs)) {
                walk.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
            }
        }
        return files;
    }

    @Test
    void snippetsForAnotherPackagesFileUseFullNames() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path md : markdownFiles()) {
            problems.addAll(WlTestPitfalls.unqualifiedInPackageSnippets(ExternalTools.PROJECT.relativize(md).toString(),
                    Files.readString(md), pacletSymbols()));
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void snippetsCallJLinkWithItsContext() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path md : markdownFiles()) {
            problems.addAll(WlTestPitfalls.unqualifiedJLinkInSnippets(ExternalTools.PROJECT.relativize(md).toString(), Files.readString(md)));
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void anUnqualifiedJLinkCallInASnippetIsFound() {
        assertEquals(1, WlTestPitfalls.unqualifiedJLinkInSnippets("README.md", "```wl\nReinstallJava[JVMArguments -> \"x\"]\n```\n").size());
        assertEquals(1, WlTestPitfalls.unqualifiedJLinkInSnippets("README.md", "start it with `ReinstallJava[JVMArguments -> x]`.").size());
        assertTrue(WlTestPitfalls.unqualifiedJLinkInSnippets("README.md",
                "```wl\nNeeds[\"JLink`\"];\nReinstallJava[JVMArguments -> \"x\"]\n```\nor ``JLink`ReinstallJava[]``").isEmpty());
    }

    @Test
    void anUnqualifiedNameInASnippetForAPackageFileIsFound() throws IOException {
        String readme = "Step 3, in `Frontend/KernelUtils.wl`:\n\n```wl\nNeeds[\"WSJava`\"]; WSJavaListen[{host, port}, Internal`Kernel`ws];\n```\n";
        List<String> found = WlTestPitfalls.unqualifiedInPackageSnippets("README.md", readme, pacletSymbols());
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).contains("README.md:4: WSJavaListen without WSJava`"), found.get(0));
        assertTrue(WlTestPitfalls.unqualifiedInPackageSnippets("README.md",
                readme.replace(" WSJavaListen", " WSJava`WSJavaListen"), pacletSymbols()).isEmpty());
    }

    // ---- PacletInfo ----

    /** Every public symbol (with ::usage in WSJava.wl) is in PacletInfo's "Symbols", and nothing else is. */
    @Test
    void pacletInfoListsExactlyThePublicSymbols() throws IOException {
        String info = Files.readString(ExternalTools.PROJECT.resolve("paclet/WSJava/PacletInfo.wl"));
        assertEquals(pacletSymbols(), pacletInfoSymbols(info));
    }

    @Test
    void aSymbolMissingFromPacletInfoIsSeen() throws IOException {
        String info = Files.readString(ExternalTools.PROJECT.resolve("paclet/WSJava/PacletInfo.wl"))
                .replace("\"WSJava`WSJavaConnect\", ", "");
        assertTrue(!pacletInfoSymbols(info).equals(pacletSymbols()), "the planted omission is seen");
    }

    /** The public functions that get SyntaxInformation in Public.wl, and the symbols it protects. */
    static List<String> publicSymbolGaps(Set<String> publicSymbols, String publicWl) {
        List<String> out = new ArrayList<>();
        Set<String> objects = Set.of("WSJava", "WSJavaServer", "WSJavaConnection", "WSJavaClient");
        Matcher protect = Pattern.compile("(?s)Protect\\[\\{(.*?)\\}\\]").matcher(publicWl);
        String protectedList = protect.find() ? protect.group(1) : "";
        for (String symbol : publicSymbols) {
            if (!objects.contains(symbol) && !publicWl.contains("syntax[" + symbol + ", {")) {
                out.add(symbol + " has no SyntaxInformation");
            }
            if (!Pattern.compile("(?<![A-Za-z0-9$`])" + Pattern.quote(symbol) + "(?![A-Za-z0-9$`])").matcher(protectedList).find()) {
                out.add(symbol + " is not protected");
            }
        }
        return out;
    }

    @Test
    void everyPublicSymbolHasSyntaxInformationAndIsProtected() throws IOException {
        String publicWl = Files.readString(ExternalTools.PROJECT.resolve("paclet/WSJava/Kernel/Public.wl"));
        Set<String> symbols = pacletSymbols();
        assertTrue(symbols.size() >= 19, symbols.toString());
        assertEquals(List.of(), publicSymbolGaps(symbols, publicWl));
        assertEquals(List.of("WSJavaPublish has no SyntaxInformation", "WSJavaPublish is not protected"),
                publicSymbolGaps(symbols, publicWl.replace("syntax[WSJavaPublish, {_, _, _}];", "").replace("WSJavaPublish, ", "")),
                "a symbol left out is seen");
    }

    private static Set<String> pacletInfoSymbols(String info) {
        Set<String> out = new java.util.LinkedHashSet<>();
        Matcher m = Pattern.compile("\"WSJava`([A-Za-z$][A-Za-z0-9$]*)\"").matcher(info);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
