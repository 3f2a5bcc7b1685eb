package wsjava.mask;

/**
 * The Java 17 version of {@code VectorKernels} (the jar's {@code META-INF/versions/17}): the Vector
 * API kernel when the JVM was started with {@code jdk.incubator.vector} and has real vector
 * registers, else null (then {@link Masker} uses the scalar loop). On JDK 19 and later it masks
 * arrays only (see {@link VectorMaskKernel}).
 */
final class VectorKernels {

    private VectorKernels() {
    }

    static MaskKernel load() {
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return null;      // not added to this JVM: linking the kernel would fail
        }
        try {
            MaskKernel kernel = new VectorMaskKernel(VectorMaskKernel.jdkHasBufferVectors());
            return kernel.isUsable() ? kernel : null;
        } catch (LinkageError e) {
            return null;
        }
    }
}
