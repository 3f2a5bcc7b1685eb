package wsjava.interop;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** Ends a headless Chromium a test started, with every process it started. */
final class ChromiumProcess {

    private ChromiumProcess() {
    }

    /**
     * Asks the browser to quit, then kills what is left of its tree: once it is gone, a child it
     * left behind belongs to init and can no longer be found from here (one outlived a test run
     * of 2026-12-01 and kept running).
     */
    static void stop(Process chromium) throws InterruptedException {
        List<ProcessHandle> tree = chromium.descendants().collect(Collectors.toList());
        chromium.destroy();
        if (!chromium.waitFor(10, TimeUnit.SECONDS)) {
            chromium.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        tree.forEach(ProcessHandle::destroyForcibly);
    }
}
