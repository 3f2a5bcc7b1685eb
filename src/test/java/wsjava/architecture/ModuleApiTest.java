package wsjava.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar as an application on the module path uses it: a module that requires io.wsjava compiles
 * against the API packages and runs a server and a client; a module that names an internal package
 * does not compile; at run time the module exports only the API (the Redis module alone sees the
 * codec), and reflection cannot reach the J/Link facade. J/Link and every other test load the jar
 * from the classpath, where the module-info is ignored.
 */
@Timeout(120)
class ModuleApiTest {

    static final List<String> API = List.of("wsjava.client", "wsjava.mask", "wsjava.server", "wsjava.tls");
    private static final Path JAR = Path.of("target", "wsjava-" + wsjava.Version.VERSION + ".jar").toAbsolutePath();
    private static final JavaCompiler JAVAC = ToolProvider.getSystemJavaCompiler();

    static final String APP = String.join("\n",
            "package app;",
            "import java.net.URI;",
            "import java.util.TreeSet;",
            "import java.util.concurrent.CompletableFuture;",
            "import java.util.concurrent.TimeUnit;",
            "import wsjava.client.ClientConfig;",
            "import wsjava.client.WebSocketClient;",
            "import wsjava.mask.Masker;",
            "import wsjava.server.*;",
            "public class Main {",
            "  public static void main(String[] args) throws Exception {",
            "    WebSocketListener echo = new WebSocketListener() {",
            "      @Override public void onText(WebSocketConnection c, String text) { c.sendText(\"echo: \" + text); }",
            "    };",
            "    try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), echo).start()) {",
            "      CompletableFuture<String> reply = new CompletableFuture<>();",
            "      WebSocketConnection client = WebSocketClient.connect(URI.create(\"ws://127.0.0.1:\" + server.port() + \"/\"),",
            "          new WebSocketListener() {",
            "            @Override public void onText(WebSocketConnection c, String text) { reply.complete(text); }",
            "          }, new ClientConfig());",
            "      client.sendText(\"hello\");",
            "      System.out.println(\"reply=\" + reply.get(30, TimeUnit.SECONDS));",
            "      client.close();",
            "    }",
            "    Module wsjava = WebSocketServer.class.getModule();",
            "    TreeSet<String> exported = new TreeSet<>();",
            "    for (String p : wsjava.getPackages()) { if (wsjava.isExported(p)) exported.add(p); }",
            "    System.out.println(\"module=\" + wsjava.getName());",
            "    System.out.println(\"exported=\" + String.join(\",\", exported));",
            "    System.out.println(\"masker=\" + Masker.implementation());",
            "    try {",
            "      Class.forName(\"wsjava.link.WSJavaLink\").getMethod(\"version\").invoke(null);",
            "      System.out.println(\"link=reachable\");",
            "    } catch (IllegalAccessException e) {",
            "      System.out.println(\"link=refused\");",
            "    }",
            "  }",
            "}");


    @BeforeAll
    static void theJarIsBuilt() {
        assertTrue(Files.exists(JAR), JAR + " is built before the tests");
    }

    @Test
    void anApplicationOnTheModulePathReachesTheApiAndOnlyTheApi(@TempDir Path dir) throws Exception {
        Path out = compile(dir, APP);
        List<String> lines = run(out, true);
        assertTrue(lines.contains("reply=echo: hello"), "the server and the client work from the module path: " + lines);
        assertTrue(lines.contains("module=io.wsjava"), lines.toString());
        assertTrue(lines.contains("exported=" + String.join(",", API)), "only the API is exported: " + lines);
        assertTrue(lines.contains("link=refused"), "the J/Link facade is not reachable from the module path: " + lines);
        // The Vector API kernel from META-INF/versions/17, as on the classpath, once the module is added.
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("masker=simd-")), "SIMD on the module path: " + lines);
    }

    @Test
    void withoutTheVectorModuleTheMaskerRunsItsScalarLoop(@TempDir Path dir) throws Exception {
        List<String> lines = run(compile(dir, APP), false);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("masker=scalar")), lines.toString());
    }

    /**
     * Every public type an application can name: a public class in an exported package, or a
     * public or protected member of one. Anything public for another package's sake (the CLI's
     * options, the J/Link event room) lives in an unexported package, so it does not appear here.
     */
    static final List<String> API_TYPES = List.of(
            "wsjava.client.ClientConfig", "wsjava.client.ReconnectListener", "wsjava.client.ReconnectPolicy",
            "wsjava.client.ReconnectingClient", "wsjava.client.WebSocketClient",
            "wsjava.mask.Masker",
            "wsjava.server.Compression", "wsjava.server.IoTransport", "wsjava.server.ServerConfig", "wsjava.server.ServerMetrics",
            "wsjava.server.ServerMetricsMBean", "wsjava.server.ServerStats", "wsjava.server.TopicRelay",
            "wsjava.server.UpgradeDecision", "wsjava.server.UpgradeHandler", "wsjava.server.UpgradeRequest",
            "wsjava.server.WebSocketConnection", "wsjava.server.WebSocketListener", "wsjava.server.WebSocketServer",
            "wsjava.tls.SelfSignedCertificate", "wsjava.tls.TlsContexts");

    @Test
    void theExportedPackagesHoldTheApiTypesAndNothingElse() throws Exception {
        assertEquals(API_TYPES, exportedPublicTypes(), "the public types of the exported packages");
    }

    @Test
    void anApplicationThatNamesAnInternalPackageDoesNotCompile(@TempDir Path dir) throws IOException {
        for (String internal : List.of("wsjava.protocol.FrameParser", "wsjava.link.WSJavaLink", "wsjava.cli.Main", "wsjava.Version",
                "wsjava.options.ServerOptions", "wsjava.server.internal.EventRoom")) {
            String source = "package app;\npublic class Main { static Class<?> c = " + internal + ".class; }\n";
            String errors = errors(dir.resolve(internal), source);
            assertTrue(errors.contains("is not visible") || errors.contains("does not export"),
                    internal + " must not be reachable from an application module:\n" + errors);
        }
    }

    /** The public types of the jar's unqualified exports, read from its module-info and its classes (sorted). */
    private static List<String> exportedPublicTypes() throws Exception {
        ModuleDescriptor descriptor = ModuleFinder.of(JAR).findAll().iterator().next().descriptor();
        Set<String> exported = descriptor.exports().stream().filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
        List<String> types = new ArrayList<>();
        try (JarFile jar = new JarFile(JAR.toFile());
             URLClassLoader loader = new URLClassLoader(new URL[] {JAR.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            for (JarEntry entry : Collections.list(jar.entries())) {
                String name = entry.getName();
                if (!name.endsWith(".class") || name.startsWith("META-INF/") || name.equals("module-info.class")) {
                    continue;
                }
                String className = name.substring(0, name.length() - ".class".length()).replace('/', '.');
                if (exported.contains(className.substring(0, className.lastIndexOf('.')))
                        && reachable(Class.forName(className, false, loader))) {
                    types.add(className);
                }
            }
        }
        Collections.sort(types);
        return types;
    }

    /** Public, and if nested, a public or protected member of a reachable type. */
    private static boolean reachable(Class<?> type) {
        if (type.isAnonymousClass() || type.isLocalClass() || type.isSynthetic()) {
            return false;
        }
        Class<?> outer = type.getDeclaringClass();
        if (outer == null) {
            return Modifier.isPublic(type.getModifiers());
        }
        return (Modifier.isPublic(type.getModifiers()) || Modifier.isProtected(type.getModifiers())) && reachable(outer);
    }

    /** Compiles module app (requires io.wsjava) with Main's source; fails the test on an error. */
    private static Path compile(Path dir, String main) throws IOException {
        String errors = errors(dir, main);
        assertEquals("", errors, "the application module compiles");
        return dir.resolve("out");
    }

    private static String errors(Path dir, String main) throws IOException {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("app"));
        Files.writeString(src.resolve("module-info.java"), "module app { requires io.wsjava; }\n");
        Files.writeString(src.resolve("app").resolve("Main.java"), main);
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = JAVAC.run(null, null, errors, "--release", "11", "--module-path", JAR.toString(),
                "-d", dir.resolve("out").toString(),
                src.resolve("module-info.java").toString(), src.resolve("app").resolve("Main.java").toString());
        String text = errors.toString(StandardCharsets.UTF_8);
        return status == 0 ? "" : text.isEmpty() ? "javac exited with " + status : text;
    }

    private static List<String> run(Path classes, boolean vector) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        if (vector) {
            command.addAll(List.of("--add-modules", "jdk.incubator.vector"));
        }
        command.addAll(List.of("--module-path", JAR + File.pathSeparator + classes, "--module", "app/app.Main"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the application did not exit in 90 s");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);
        return output.lines().map(String::trim).collect(Collectors.toList());
    }
}
