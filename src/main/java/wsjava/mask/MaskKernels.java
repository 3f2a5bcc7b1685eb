package wsjava.mask;

/** Chooses the kernel {@link Masker} uses, falling back to the scalar loop whenever SIMD is unavailable. */
final class MaskKernels {

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
     * Returns the Vector API kernel, or null when the JVM can't run it. Which {@link VectorKernels}
     * answers depends on the Java version (the jar is multi-release).
     */
    static MaskKernel loadVectorKernel() {
        return VectorKernels.load();
    }
}
