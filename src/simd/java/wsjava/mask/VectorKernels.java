package wsjava.mask;

import java.util.Optional;

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
        Optional<Module> vector = ModuleLayer.boot().findModule("jdk.incubator.vector");
        if (vector.isEmpty()) {
            return null;      // not added to this JVM: linking the kernel would fail
        }
        // On the module path io.wsjava reads only what its module-info requires, and it cannot
        // require an incubator module that Java 11 lacks: it reads this one when the JVM has it.
        // From the classpath (J/Link) this changes nothing: the unnamed module reads every module.
        VectorKernels.class.getModule().addReads(vector.get());
        try {
            MaskKernel kernel = new VectorMaskKernel(VectorMaskKernel.jdkHasBufferVectors());
            return kernel.isUsable() ? kernel : null;
        } catch (LinkageError e) {
            return null;
        }
    }
}
