package wsjava.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The paclet a release ships (built with the jar, before the tests) is the same build as the jar
 * beside it, and its PacletInfo says the POM's version and public address. ./wsjava release copies
 * both into dist/ and checks the jar and the version again there.
 */
@Timeout(60)
class PacletReleaseTest {

    static final String VERSION = ProjectPom.LIBRARY.version();
    static final String HOME = ProjectPom.LIBRARY.property("wsjava.home");
    private static final Path JAR = Path.of("target", "wsjava-" + VERSION + ".jar");
    private static final Path PACLET = Path.of("target", "WSJava-" + VERSION + ".paclet");

    @Test
    void thePacletHoldsTheJarBesideItAndSaysThePomsVersionAndAddress() throws IOException {
        assertTrue(Files.exists(PACLET), PACLET + " is built with the jar, before the tests");
        List<String> problems = problems(Files.readAllBytes(PACLET), Files.readAllBytes(JAR), VERSION, HOME);
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void theTreesPacletInfoSaysThePomsVersionAndAddressToo() throws IOException {
        // PacletDirectoryLoad on this tree reads it as is: a developer sees what a user gets.
        String info = Files.readString(Path.of("paclet", "WSJava", "PacletInfo.wl"));
        assertEquals(VERSION, field(info, "Version"), "paclet/WSJava/PacletInfo.wl's Version");
        assertEquals(HOME, field(info, "URL"), "paclet/WSJava/PacletInfo.wl's URL");
        assertEquals(HOME, field(info, "SourceControlURL"), "paclet/WSJava/PacletInfo.wl's SourceControlURL");
        assertEquals(VERSION, wsjava.Version.VERSION, "wsjava.Version.VERSION, which the launcher and the paclet report");
    }

    @Test
    void aPacletWithAnotherJarOrVersionOrAddressIsRefused() throws IOException {
        byte[] jar = Files.readAllBytes(JAR);
        byte[] otherJar = jar.clone();
        otherJar[otherJar.length / 2] ^= 1;
        String info = "PacletObject[<|\"Name\" -> \"WSJava\", \"Version\" -> \"" + VERSION + "\", \"URL\" -> \"" + HOME
                + "\", \"SourceControlURL\" -> \"" + HOME + "\"|>]";
        assertEquals(List.of(), problems(paclet(info, jar), jar, VERSION, HOME), "a good paclet passes");
        assertTrue(problems(paclet(info, otherJar), jar, VERSION, HOME).stream().anyMatch(p -> p.contains("not the jar")));
        assertTrue(problems(paclet(info.replace(VERSION, "9.9.9"), jar), jar, VERSION, HOME).stream()
                .anyMatch(p -> p.contains("Version")));
        assertTrue(problems(paclet(info.replace(HOME, "https://example.invalid"), jar), jar, VERSION, HOME).stream()
                .anyMatch(p -> p.contains("URL")));
        assertTrue(problems(paclet(info, null), jar, VERSION, HOME).stream().anyMatch(p -> p.contains("no WSJava/Java/")));
    }

    static List<String> problems(byte[] paclet, byte[] jar, String version, String home) throws IOException {
        Map<String, byte[]> entries = entries(paclet);
        List<String> problems = new ArrayList<>();
        String jarName = "WSJava/Java/wsjava-" + version + ".jar";
        byte[] inside = entries.get(jarName);
        if (inside == null) {
            problems.add("the paclet has no " + jarName + ": " + entries.keySet());
        } else if (!Arrays.equals(inside, jar)) {
            problems.add("the paclet's " + jarName + " is not the jar beside it");
        }
        byte[] infoBytes = entries.get("WSJava/PacletInfo.wl");
        if (infoBytes == null) {
            problems.add("the paclet has no WSJava/PacletInfo.wl");
            return problems;
        }
        String info = new String(infoBytes, StandardCharsets.UTF_8);
        expect(problems, info, "Version", version);
        expect(problems, info, "URL", home);
        expect(problems, info, "SourceControlURL", home);
        return problems;
    }

    private static void expect(List<String> problems, String info, String name, String wanted) {
        String found = field(info, name);
        if (!wanted.equals(found)) {
            problems.add("the paclet's PacletInfo says \"" + name + "\" -> " + found + ", not " + wanted);
        }
    }

    /** A top-level string field of a PacletInfo.wl, e.g. "Version" -> "0.1.0"; null when absent. */
    static String field(String info, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*->\\s*\"([^\"]*)\"").matcher(info);
        return m.find() ? m.group(1) : null;
    }

    private static Map<String, byte[]> entries(byte[] zip) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                entries.put(entry.getName(), in.readAllBytes());
            }
        }
        return entries;
    }

    private static byte[] paclet(String info, byte[] jar) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(bytes)) {
            out.putNextEntry(new ZipEntry("WSJava/PacletInfo.wl"));
            out.write(info.getBytes(StandardCharsets.UTF_8));
            if (jar != null) {
                out.putNextEntry(new ZipEntry("WSJava/Java/wsjava-" + VERSION + ".jar"));
                out.write(jar);
            }
        }
        return bytes.toByteArray();
    }
}
