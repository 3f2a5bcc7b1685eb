package wsjava.mask;

/** Lets the benchmarks call each kernel directly (they are package-private in the library). */
public final class KernelAccess {

    private static final MaskKernel VECTOR = MaskKernels.loadVectorKernel();

    private KernelAccess() {
    }

    public static boolean vectorAvailable() {
        return VECTOR != null;
    }

    public static String vectorName() {
        return VECTOR == null ? "none" : VECTOR.name();
    }

    public static void scalar(byte[] in, byte[] out, int key) {
        ScalarMaskKernel.INSTANCE.mask(in, 0, out, 0, in.length, key, 0);
    }

    public static void vector(byte[] in, byte[] out, int key) {
        VECTOR.mask(in, 0, out, 0, in.length, key, 0);
    }
}
