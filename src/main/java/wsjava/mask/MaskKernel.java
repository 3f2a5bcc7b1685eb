package wsjava.mask;

import java.nio.ByteBuffer;

/**
 * One implementation of the XOR loop. {@link Masker} picks one at class-load time; the
 * Vector API kernel lives in a separately compiled class so that this jar still loads on Java 11.
 */
interface MaskKernel {

    /**
     * XORs {@code len} bytes of {@code src} from {@code srcOff} into {@code dst} from
     * {@code dstOff}; the two ranges are the same range or disjoint. The key byte used for
     * {@code src[srcOff]} is key byte {@code phase}.
     *
     * @param key the four key bytes in network order, {@code k0 << 24 | k1 << 16 | k2 << 8 | k3}
     */
    void mask(byte[] src, int srcOff, byte[] dst, int dstOff, int len, int key, int phase);

    /**
     * Masks {@code len} bytes of a direct (or any writable) buffer in place from absolute index
     * {@code off}; the buffer's position and limit are not used or moved. The scalar word loop
     * unless a kernel has something faster.
     */
    default void mask(ByteBuffer buf, int off, int len, int key, int phase) {
        ScalarMaskKernel.INSTANCE.mask(buf, off, len, key, phase);
    }

    /** A short name for reports: "scalar" or "simd-512" and so on. */
    String name();

    /** False when the kernel would run but not pay off, for example with vectors narrower than 128 bits. */
    default boolean isUsable() {
        return true;
    }
}
