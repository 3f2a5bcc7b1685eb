package wsjava.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The bench's C programs ({@code bench/c/NAME.c}), compiled with gcc at run time into the results' native folder. */
final class NativeBuild {

    private NativeBuild() {
    }

    /**
     * Compiles {@code bench/c/NAME.c} into {@code dir/NAME} with {@code flags}; returns the binary,
     * or null with the reason printed (as "{@code what} not built: ...") when there is no gcc or no
     * source. A compiler error throws: the source is ours, so it is a bug, not a missing tool.
     */
    static Path gcc(String name, String what, Path dir, String... flags) throws IOException, InterruptedException {
        Path source = CLoadClient.projectRoot().resolve("bench/c/" + name + ".c");
        if (!Files.exists(source) || !EchoBench.onPath("gcc")) {
            System.out.println(what + " not built: " + (Files.exists(source) ? "no gcc on PATH" : "no " + source));
            return null;
        }
        Files.createDirectories(dir);
        Path binary = dir.resolve(name);
        List<String> command = new ArrayList<>(List.of("gcc"));
        command.addAll(List.of(flags));
        command.addAll(List.of("-o", binary.toString(), source.toString()));
        Process gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (gcc.waitFor() != 0) {
            throw new IOException("gcc failed on " + source + ":\n" + output);
        }
        return binary;
    }
}
