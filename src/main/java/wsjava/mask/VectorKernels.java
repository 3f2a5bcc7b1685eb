package wsjava.mask;

/**
 * The Vector API kernel, where the running JVM can run it. This is the Java 11 version of the
 * class, and it has none. The jar is a Multi-Release JAR: on Java 17 and later the JVM loads
 * {@code META-INF/versions/17/wsjava/mask/VectorKernels.class} instead, which returns the kernel
 * (compiled from {@code src/simd/java}). No reflection is involved.
 */
final class VectorKernels {

    private VectorKernels() {
    }

    /** Null: a Java 11 runtime has no Vector API. */
    static MaskKernel load() {
        return null;
    }
}
