package wsjava.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * uWebSockets in the echo comparison, when the environment variable WSJAVA_UWS_DIR names a
 * uWebSockets checkout with uSockets in it: {@code scripts/build-uws-echo.sh} builds our small echo
 * server on it (-O3, no TLS, no compression). Without the variable it is reported as not run.
 */
final class UwsPeer {

    static final String VARIABLE = "WSJAVA_UWS_DIR";

    private UwsPeer() {
    }

    /** The peer, or null with the reason printed. */
    static EchoBench.Peer build(Path dir) throws IOException, InterruptedException {
        String uws = System.getenv(VARIABLE);
        if (uws == null || uws.isEmpty()) {
            System.out.println("uWebSockets: not run (set " + VARIABLE + " to a uWebSockets checkout with uSockets)");
            return null;
        }
        Files.createDirectories(dir);
        Path binary = dir.resolve("uws_echo");
        Process build = new ProcessBuilder("bash", CLoadClient.projectRoot().resolve("scripts/build-uws-echo.sh").toString(), uws, binary.toString())
                .redirectErrorStream(true).start();
        String output = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (build.waitFor() != 0) {
            System.out.println("uWebSockets: not run, the build failed:\n" + output);
            return null;
        }
        return EchoBench.nativePeer("uWebSockets", List.of(binary.toString()));
    }
}
