package wsjava.bench.attack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import wsjava.bench.Progress;
import wsjava.bench.Report;

/** One attack against one fresh server: the measurements in {@link AttackRow}, in a fixed order. */
final class Run {

    private final Attack attack;
    private final Attack.Scale scale;
    private final String heap;
    private final Path libraryJar;
    private final String arenas;
    private final String transport;
    private final Path out;

    /** {@code transport}: "nio", or "ffm" for the server's FFM transport on the newest JDK 22 or later. */
    Run(Attack attack, Attack.Scale scale, String heap, Path libraryJar, String arenas, String transport, Path out) {
        this.attack = attack;
        this.scale = scale;
        this.heap = heap;
        this.libraryJar = libraryJar;
        this.arenas = arenas;
        this.transport = transport;
        this.out = out;
    }

    /**
     * Runs the attack and checks its bounds. An attack that could not run (its server did not start,
     * its connections were not upgraded) is a failed row with the reason, and the suite goes on.
     */
    AttackRow measure(Progress progress) throws InterruptedException {
        AttackRow row = new AttackRow();
        row.attack = attack.name();
        row.heap = heap == null ? "default" : heap;
        try {
            attack.prepare();
            measureInto(row, progress);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            row.violations.add("the attack could not run: " + SetupFailure.describe(e));
            return row;
        } finally {
            attack.release();
        }
        check(row);
        return row;
    }

    private void measureInto(AttackRow row, Progress progress) throws Exception {
        List<String> options = new ArrayList<>(attack.serverOptions(scale));
        try (ServerUnderTest server = ServerUnderTest.start(attack.name(), attack.mode(), heap, options, libraryJar, arenas, transport, out)) {
            Thread.sleep(300);
            row.heapBefore = server.heapAfterGc();
            row.heapMax = server.maxHeap;
            row.rssBefore = server.rssBytes();
            double serverCpu = server.cpuSeconds();
            double ownCpu = ServerUnderTest.cpuSecondsOf(ProcessHandle.current().pid());
            long start = System.nanoTime();
            Bystander bystander = new Bystander(server.port, attack.tls());
            try {
                attack.launch(server, scale);
                progress.detail(attack.name() + ": measuring under attack");
                row.heapUnderAttack = server.heapAfterGc();
                row.inboundBuffered = server.inboundBuffered;
                row.rssUnderAttack = server.rssBytes();
            } finally {
                attack.finish();
                bystander.close();
                row.seconds = (System.nanoTime() - start) / 1e9;
                row.serverCpuSeconds = server.cpuSeconds() - serverCpu;
                row.attackerCpuSeconds = ServerUnderTest.cpuSecondsOf(ProcessHandle.current().pid()) - ownCpu;
                row.bytesSent = attack.bytesSent();
                row.detail = attack.detail();
                attack.close();
            }
            row.bystanderP99Millis = bystander.p99();
            row.bystanderRoundTrips = bystander.roundTrips();
            row.bystanderFailures = bystander.failures();
            long servingFrom = System.nanoTime();
            row.servedAfterwards = servedAfterTheKernel(server);
            row.servedAfterSeconds = (System.nanoTime() - servingFrom) / 1e9;
            row.rssAfter = server.rssBytes();
            row.alive = server.alive();
            row.ioThreadDeaths = server.deathsInLog();
            row.outOfMemory = server.outOfMemoryInLog();
        }
    }

    /** How long a fresh client may wait once the server has nothing of the attack's left to handle. */
    private static final long SERVE_MILLIS = 15_000;

    /**
     * Whether a fresh client is served within 15 s of the server having nothing of the attack left
     * to handle. A WL-style server's kernel first handles every message the attack sent (queued, or
     * held back while the queue was full: none is lost), nominally at 20 MB/s (AttackServer); the
     * wait follows what the kernel reports it has taken, since on a loaded machine its pace slips
     * behind the nominal one (its own String making and collections), up to three times that.
     */
    private boolean servedAfterTheKernel(ServerUnderTest server) throws InterruptedException {
        long need = attack.bytesForTheKernel();
        long start = System.currentTimeMillis();
        long nominal = AttackServer.kernelMillis(need);
        long deadline = start + SERVE_MILLIS + nominal;
        long cap = start + SERVE_MILLIS + 3 * nominal;
        boolean handled = need == 0;
        while (System.currentTimeMillis() < deadline) {
            if (Bystander.servedAfresh(server.port, attack.tls())) {
                return true;
            }
            long now = System.currentTimeMillis();
            if (!handled && server.kernelTook() >= need) {
                handled = true;
                deadline = Math.max(deadline, now + SERVE_MILLIS);
            } else if (!handled) {
                deadline = Math.min(cap, Math.max(deadline, now + SERVE_MILLIS));      // the kernel is still at it
            }
            Thread.sleep(500);
        }
        return false;
    }

    private void check(AttackRow row) {
        if (!row.alive) {
            row.violations.add("the server process died");
        }
        if (row.ioThreadDeaths > 0) {
            row.violations.add(row.ioThreadDeaths + " I/O thread deaths or uncaught OutOfMemoryErrors in its log");
        }
        if (row.outOfMemory > 0) {
            row.violations.add("the server ran out of memory (" + row.outOfMemory + " OutOfMemoryErrors in its log)");
        }
        if (!row.servedAfterwards) {
            row.violations.add("a new client was not served afterwards");
        }
        if (attack.mode().equals("echo") && !(row.bystanderP99Millis <= Bounds.BYSTANDER_P99_MILLIS)) {
            row.violations.add("bystander p99 " + Report.fixed(row.bystanderP99Millis, 1) + " ms, over " + Bounds.BYSTANDER_P99_MILLIS + " ms");
        }
        if (row.heapUnderAttack < 0) {
            row.violations.add("the server could not report its heap under attack");
        }
        row.violations.addAll(attack.check(row, scale));
    }
}
