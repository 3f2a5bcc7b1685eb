package wsjava.bench.attack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An attack whose setup throws (here: its connection not upgraded in time) is a failed row with the
 * reason, and the attacks after it still run: one broken attack does not end the suite.
 */
@Timeout(120)
class AttackSetupFailureTest {

    @Test
    void anAttackThatCannotRunFailsAloneAndTheSuiteGoesOn(@TempDir Path out) throws Exception {
        List<Supplier<Attack>> attacks = List.of(NotUpgraded::new, Idle::new);
        AttackBench.Outcome outcome = AttackBench.run(List.of("--smoke", "--heap", "128m", "--out", out.toString()), attacks);

        assertEquals(2, outcome.rows.size(), "both attacks have a row");
        assertTrue(outcome.failures.stream().anyMatch(f -> f.startsWith("not-upgraded (128m): the attack could not run: "
                + "java.net.SocketTimeoutException: Read timed out, at AttackSetupFailureTest$NotUpgraded.launch")), outcome.failures::toString);
        assertEquals("idle", outcome.rows.get(1).get(0));
        assertTrue(outcome.failures.stream().noneMatch(f -> f.startsWith("idle ")), outcome.failures::toString);
    }

    /** A tool the attack needs beside the server (redis-server) is missing: a failed row with the reason, and what was set up is undone. */
    @Test
    void anAttackWhoseToolIsMissingFailsAndIsReleased(@TempDir Path out) throws Exception {
        NoTool attack = new NoTool();
        AttackBench.Outcome outcome = AttackBench.run(List.of("--smoke", "--heap", "128m", "--out", out.toString()), List.of(() -> attack));

        assertEquals(1, outcome.rows.size());
        assertTrue(outcome.failures.stream().anyMatch(f -> f.startsWith("no-tool (128m): the attack could not run: "
                + "java.io.IOException: some-tool is not installed")), outcome.failures::toString);
        assertTrue(attack.released, "release() ran after a failed prepare()");
    }

    /** Its prepare() fails as RedisPeer's does without redis-server. */
    static final class NoTool extends Attack {
        volatile boolean released;

        @Override
        String name() {
            return "no-tool";
        }

        @Override
        String description(Scale scale) {
            return "needs a tool that is not there";
        }

        @Override
        void prepare() throws Exception {
            throw new java.io.IOException("some-tool is not installed");
        }

        @Override
        void release() {
            released = true;
        }

        @Override
        void launch(ServerUnderTest server, Scale scale) {
            throw new AssertionError("not reached");
        }

        @Override
        long bytesSent() {
            return 0;
        }

        @Override
        public void close() {
        }
    }

    /** Fails as a connection whose upgrade never came would. */
    static final class NotUpgraded extends Attack {
        @Override
        String name() {
            return "not-upgraded";
        }

        @Override
        String description(Scale scale) {
            return "its setup times out";
        }

        @Override
        void launch(ServerUnderTest server, Scale scale) throws Exception {
            throw new SocketTimeoutException("Read timed out");
        }

        @Override
        long bytesSent() {
            return 0;
        }

        @Override
        public void close() {
        }
    }

    /** No attack at all: a second and the bystander's round trips. */
    static final class Idle extends Attack {
        @Override
        String name() {
            return "idle";
        }

        @Override
        String description(Scale scale) {
            return "nothing for a second";
        }

        @Override
        void launch(ServerUnderTest server, Scale scale) throws Exception {
            Thread.sleep(1_000);
        }

        @Override
        long bytesSent() {
            return 0;
        }

        @Override
        public void close() {
        }
    }
}
