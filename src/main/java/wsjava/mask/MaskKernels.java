package wsjava.mask;

/** Chooses the kernel {@link Masker} uses, falling back to the scalar loop whenever SIMD is unavailable. */
final class MaskKernels {

    static final String VECTOR_KERNEL_CLASS = "wsjava.mask.VectorMaskKernel";

    private MaskKernels() {
    }

    /** {@code choice} is "auto", "simd" or "scalar"; "simd" behaves like "auto" when the Vector API is absent. */
    static MaskKernel select(String choice) {
        if ("scalar".equalsIgnoreCase(choice)) {
            return ScalarMaskKernel.INSTANCE;
        }
        MaskKernel vector = loadVectorKernel();
        return vector != null ? vector : ScalarMaskKernel.INSTANCE;
    }

    /**
     * Returns the Vector API kernel, or null when the JVM can't run it: a Java 11 runtime fails on
     * the class version, and a JVM started without jdk.incubator.vector fails to link it.
     */
    static MaskKernel loadVectorKernel() {
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return null;
        }
        try {
            Class<?> type = Class.forName(VECTOR_KERNEL_CLASS);
            MaskKernel kernel = (MaskKernel) type.getDeclaredConstructor().newInstance();
            return kernel.isUsable() ? kernel : null;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }
}
