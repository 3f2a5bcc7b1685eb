package wsjava.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import wsjava.mask.Masker;

/**
 * The jar J/Link loads: Java 11 bytecode everywhere except {@code META-INF/versions/17}, where the
 * Vector API kernel lives, and the JVM running these tests (17, with the incubator module) picks it,
 * and {@code META-INF/versions/22}, where the FFM transport lives (when the build had a JDK 22 or
 * later: {@code -Dwsjava.jdk22}, as the launcher passes it).
 */
class MultiReleaseJarTest {

    private static final int JAVA_11 = 55;
    private static final int JAVA_17 = 61;
    private static final int JAVA_22 = 66;

    private static int majorVersion(JarFile jar, JarEntry entry) throws IOException {
        try (InputStream in = jar.getInputStream(entry); DataInputStream data = new DataInputStream(in)) {
            data.readInt();                 // 0xCAFEBABE
            data.readUnsignedShort();       // minor
            return data.readUnsignedShort();
        }
    }

    @Test
    void baseClassesAreJava11AndTheKernelIsInVersions17() throws IOException {
        Path path = Path.of("target", "wsjava-0.1.0.jar");
        assertTrue(Files.exists(path), "the jar is built before the tests");
        List<String> versioned = new ArrayList<>();
        try (JarFile jar = new JarFile(path.toFile())) {
            assertEquals("true", jar.getManifest().getMainAttributes().getValue("Multi-Release"));
            for (JarEntry entry : Collections.list(jar.entries())) {
                if (!entry.getName().endsWith(".class")) {
                    continue;
                }
                int major = majorVersion(jar, entry);
                if (entry.getName().startsWith("META-INF/versions/17/")) {
                    assertEquals(JAVA_17, major, entry.getName());
                    versioned.add(entry.getName());
                } else if (entry.getName().startsWith("META-INF/versions/22/")) {
                    assertEquals(JAVA_22, major, entry.getName());
                    versioned.add(entry.getName());
                } else {
                    assertTrue(major <= JAVA_11, entry.getName() + " is not Java 11 bytecode: " + major);
                }
            }
        }
        assertTrue(versioned.contains("META-INF/versions/17/wsjava/mask/VectorMaskKernel.class"), versioned.toString());
        assertTrue(versioned.contains("META-INF/versions/17/wsjava/mask/VectorKernels.class"), versioned.toString());
        if (System.getProperty("wsjava.jdk22") != null) {
            assertTrue(versioned.contains("META-INF/versions/22/wsjava/server/FfmProvider.class"), versioned.toString());
        }
    }

    @Test
    void aJava17RuntimeWithTheVectorModulePicksTheSimdKernel() {
        // As MaskerTest, this assumes a CPU with 128-bit vectors or wider (any x86-64 or ARM64).
        assertTrue(Masker.implementation().startsWith("simd-"), "Masker chose " + Masker.implementation());
    }
}
