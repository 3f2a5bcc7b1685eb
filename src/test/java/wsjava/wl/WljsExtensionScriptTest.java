package wsjava.wl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import wsjava.testing.ExternalTools;

/**
 * ./wsjava wljs: the WLJS extension installs and uninstalls with one command each, and "check"
 * finds every place it hooks into in a tree shaped like WLJS 3.0.x's files (written here, one line
 * per hooked expression), and names the one that is missing when a WLJS update changes it.
 */
class WljsExtensionScriptTest {

    private static final Path SCRIPT = ExternalTools.PROJECT.resolve("scripts/wljs-extension.sh");

    /** The expressions the extension hooks into, one per file, as WLJS 3.0.x writes them. */
    private static final Map<String, String> WLJS_SHAPE = Map.of(
            "Scripts/start.wls", "WLJSPackages`Load[ AppExtensions`ExtensionsDir ];\n"
                    + "] &/@ WLJSPackages`Includes[\"frontend\"];\n"
                    + "SocketListen[USocketOpen[$Env[\"host\"], $Env[\"ws\"] ], wcp@#&, \"SocketEventsHandler\"->CSocketsClosingHandler];\n",
            "Frontend/KernelUtils.wl", "    GenericKernel`Init[kernel,  (\n"
                    + "          SocketListen[USocketOpen[host, port ], Internal`Kernel`wcp@#&, \"SocketEventsHandler\"->CSocketsClosingHandler];\n",
            "Packages/CSockets/Kernel/CSockets.wl", "USocketOpen[host_String: \"localhost\", port_Integer] := \n"
                    + "USocketObject /: SocketListen[socket: USocketObject[socketId_Integer], handler_, OptionsPattern[]] := \n",
            "Packages/CSockets/Kernel/EventsExtension.wl", "CSocketsClosingHandler = (EventFire[#2, #1, True])&\n",
            "Kernel/LocalKernel.wl", "LocalKernelObject /: GenericKernel`Init[k_LocalKernelObject, expr_, OptionsPattern[] ] := 1\n",
            "Kernel/Kernel.wl", "SetAttributes[Init, HoldRest]\n",
            "Packages/Misc/Kernel/Async.wl", "MicrotaskSubmit[expr_, OptionsPattern[] ] := 1\n",
            "package.json", "{\n  \"name\": \"wljs-notebook\",\n  \"version\": \"3.0.1\"\n}\n");

    private static void write(Path root, Map<String, String> files) throws IOException {
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = root.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
        }
    }

    private static ExternalTools.Result script(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        return ExternalTools.run(command, 60, Map.of("WSJAVA_NO_PACLET_INSTALL", "1"));
    }

    @Test
    void checkFindsEveryHookInAWljsShapedTree(@TempDir Path wljs) throws IOException {
        write(wljs, WLJS_SHAPE);
        ExternalTools.Result r = script("check", wljs.toString());
        assertEquals(0, r.exitCode, r.output);
        assertTrue(r.output.contains("version 3.0.1"), r.output);
        assertFalse(r.output.contains("MISSING"), r.output);
    }

    @Test
    void checkNamesWhatAWljsUpdateChanged(@TempDir Path wljs) throws IOException {
        write(wljs, WLJS_SHAPE);
        // A WLJS that listens differently in the evaluation kernel, and whose Init no longer holds.
        Files.writeString(wljs.resolve("Frontend/KernelUtils.wl"), "GenericKernel`Init[kernel, WebSocketListen[host, port]]\n");
        Files.writeString(wljs.resolve("Kernel/Kernel.wl"), "SetAttributes[Init, HoldAll]\n");
        ExternalTools.Result r = script("check", wljs.toString());
        assertEquals(1, r.exitCode, r.output);
        assertTrue(r.output.contains("MISSING  Frontend/KernelUtils.wl: the evaluation kernel listener"), r.output);
        assertTrue(r.output.contains("MISSING  Kernel/Kernel.wl"), r.output);
        assertTrue(r.output.contains("2 place(s) missing"), r.output);
    }

    @Test
    void installStatusAndUninstallAreOneCommandEach(@TempDir Path extensions) throws IOException {
        Path dir = extensions.resolve("WLJS Notebooks/Extensions");   // WLJS's folder name has a space
        assertEquals(1, script("status", dir.toString()).exitCode, "not installed yet");
        ExternalTools.Result install = script("install", dir.toString());
        assertEquals(0, install.exitCode, install.output);
        assertTrue(Files.isRegularFile(dir.resolve("wsjava/Frontend.wl")), install.output);
        ExternalTools.Result status = script("status", dir.toString());
        assertEquals(0, status.exitCode, status.output);
        assertTrue(status.output.contains("version 0.1.0"), status.output);
        assertEquals(0, script("uninstall", dir.toString()).exitCode);
        assertFalse(Files.exists(dir.resolve("wsjava")));
        assertEquals(1, script("status", dir.toString()).exitCode, "gone again");
    }

    /**
     * A stand-in wolframscript on PATH: it prints a line (as an activation prompt would) and exits 0,
     * writing the Extensions folder it was asked for only when docs is given, as the kernel does once
     * PacletInstall gave a PacletObject that PacletFind then finds.
     */
    private static ExternalTools.Result installWithKernel(Path tmp, String docs, String... args) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path stub = bin.resolve("wolframscript");
        Files.writeString(stub, "#!/usr/bin/env bash\n"
                + "echo \"stub kernel: an activation prompt would show here\"\n"
                + "echo \"stub kernel: paclet $WSJAVA_PACLET_FILE\"\n"
                + (docs == null ? "echo 'PacletInstall gave Failure[...]'\n"
                        : "printf '%s' '" + docs + "/WLJS Notebooks/Extensions' > \"$WSJAVA_DIR_FILE\"\n")
                + "exit 0\n");
        stub.toFile().setExecutable(true);
        Path paclet = Files.writeString(tmp.resolve("WSJava-0.1.0.paclet"), "not a real paclet");
        List<String> command = new java.util.ArrayList<>(List.of("bash", SCRIPT.toString(), "install"));
        command.addAll(List.of(args));
        return ExternalTools.run(command, 60, Map.of("PATH", bin + ":" + System.getenv("PATH"), "WSJAVA_PACLET", paclet.toString()));
    }

    @Test
    void aPacletInstallThatFailsStopsTheInstallEvenWithExitCodeZero(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("Extensions");
        ExternalTools.Result r = installWithKernel(tmp, null, dir.toString());
        assertEquals(1, r.exitCode, r.output);
        assertTrue(r.output.contains("the paclet was not installed"), r.output);
        assertTrue(r.output.contains("stub kernel: an activation prompt would show here"), "the kernel's output is not hidden: " + r.output);
        assertFalse(Files.exists(dir.resolve("wsjava")), r.output);
    }

    @Test
    void theExtensionsFolderComesFromTheKernelsDocumentsDirectory(@TempDir Path tmp) throws IOException {
        Path docs = tmp.resolve("kernel docs");
        ExternalTools.Result r = installWithKernel(tmp, docs.toString());
        assertEquals(0, r.exitCode, r.output);
        assertTrue(r.output.contains("stub kernel: paclet " + tmp.resolve("WSJava-0.1.0.paclet")), r.output);
        assertTrue(Files.isRegularFile(docs.resolve("WLJS Notebooks/Extensions/wsjava/Frontend.wl")), r.output);
    }

    /** WLJS finds an extension's files under a folder named as its package.json "name". */
    @Test
    void theExtensionFolderIsNamedAsItsPackage() throws IOException {
        Path folder = ExternalTools.PROJECT.resolve("wljs/wsjava");
        String json = Files.readString(folder.resolve("package.json"));
        assertTrue(json.contains("\"name\": \"wsjava\""), json);
        assertTrue(json.contains("\"frontend\": \"Frontend.wl\""), json);
        assertTrue(Files.isRegularFile(folder.resolve("Frontend.wl")));
    }
}
