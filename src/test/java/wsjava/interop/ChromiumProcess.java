package wsjava.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** A headless Chromium a test starts and ends, with every process it started, leaving nothing behind. */
final class ChromiumProcess {

    private ChromiumProcess() {
    }

    /**
     * Starts Chromium on {@code arguments} (flags, then the page), with its profile, its log
     * ({@code chromium.log}) and its own temporary files in {@code profile}, so that deleting the
     * test's temporary directory removes all of it (Chromium's temporary directories otherwise
     * stay in /tmp now and then). The tests keep that directory when they fail, log included.
     */
    static Process start(Path profile, List<String> arguments) throws IOException {
        Path tmp = Files.createDirectories(profile.resolve("tmp"));
        List<String> command = new ArrayList<>(List.of("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--remote-debugging-port=0"));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(profile.resolve("chromium.log").toFile());
        builder.environment().put("TMPDIR", tmp.toString());
        return builder.start();
    }

    /**
     * Asks the browser to quit, then kills what is left of its tree and waits for it: once it is
     * gone, a child it left behind belongs to init and can no longer be found from here (one
     * outlived a test run of 2026-12-01 and kept running), and a child still writing to the
     * profile would make its deletion fail.
     */
    static void stop(Process chromium) throws InterruptedException {
        List<ProcessHandle> tree = chromium.descendants().collect(Collectors.toList());
        chromium.destroy();
        if (!chromium.waitFor(10, TimeUnit.SECONDS)) {
            chromium.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        tree.forEach(ProcessHandle::destroyForcibly);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (ProcessHandle child : tree) {
            while (running(child) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        }
    }

    /**
     * Whether {@code process} still runs: {@code isAlive} is true for a zombie too, and an orphan
     * is one until whatever adopted it reaps it, though it holds no file by then.
     */
    private static boolean running(ProcessHandle process) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
        } catch (IOException e) {      // no such process any more
            return false;
        }
        char state = stat.charAt(stat.lastIndexOf(')') + 2);
        return state != 'Z' && state != 'X';
    }
}
