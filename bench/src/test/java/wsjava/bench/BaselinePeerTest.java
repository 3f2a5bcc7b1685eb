package wsjava.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import wsjava.cli.Main;

/** The echo run's baseline row serves from the jar it is given, before the library the bench was built with. */
class BaselinePeerTest {

    @Test
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)     // a hang in readLine is not interruptible
    void theBaselineServesFromItsJar(@TempDir Path out) throws Exception {
        Path library = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        EchoBench.Peer baseline = BaselinePeer.of(library);
        assertEquals(BaselinePeer.NAME, baseline.name());
        FreshPort.Running running = FreshPort.start(baseline, false, out);
        try {
            assertEquals("", EchoBench.warmUp(running.port()), "no echo from the baseline server");
        } finally {
            EchoBench.stop(running.process());
        }
    }

    /** A jar whose server entry point is broken: had the bench's own library come first, the server would start. */
    @Test
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void itsJarComesFirstOnTheClassPath(@TempDir Path dir) throws Exception {
        Path broken = dir.resolve("broken.jar");
        try (OutputStream file = Files.newOutputStream(broken); JarOutputStream jar = new JarOutputStream(file)) {
            jar.putNextEntry(new ZipEntry(Main.class.getName().replace('.', '/') + ".class"));
            jar.write(new byte[] {1, 2, 3});
            jar.closeEntry();
        }
        Process started;
        try {
            started = EchoBench.start(BaselinePeer.of(broken), EchoBench.freePort(), false, dir, 20);
        } catch (IOException expected) {
            return;     // the broken entry point was loaded: the jar came first
        }
        EchoBench.stop(started);
        fail("a server started from a jar whose entry point is broken: the bench's own library came first");
    }

    @Test
    void aMissingJarIsAnErrorNotASecondWSJavaRow(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BaselinePeer.of(dir.resolve("none.jar")));
        assertTrue(e.getMessage().contains("no such jar"), e.getMessage());
    }

    @Test
    void onlyKeepsTheBaselineByItsServersName() {
        assertTrue(EchoPeers.named(BaselinePeer.NAME, "floor,WSJava"));
        assertTrue(EchoPeers.named(BaselinePeer.NAME, BaselinePeer.NAME));
        assertFalse(EchoPeers.named(BaselinePeer.NAME, "floor,NioFloor"));
        assertTrue(EchoPeers.named("WSJava (JDK 25)", "WSJava"));
        assertFalse(EchoPeers.named("Netty epoll", "Netty"));
    }
}
