package wsjava.mask;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The one entry point for WebSocket masking (RFC 6455 section 5.3): payload byte {@code i} is
 * XORed with key byte {@code (phase + i) % 4}. Masking is an involution, so the same call unmasks.
 *
 * <p>Every method takes the phase at which the range starts and returns the phase at which the
 * next byte would start, so a payload that arrives over many reads is unmasked piece by piece.
 *
 * <p>The kernel is chosen once, at class initialisation: the Vector API kernel when the JVM runs
 * with {@code --add-modules jdk.incubator.vector}, else the scalar word loop. The system property
 * {@code wsjava.mask=scalar} forces the scalar path; {@link #implementation()} says which is active.
 */
public final class Masker {

    private static final MaskKernel KERNEL = MaskKernels.select(System.getProperty("wsjava.mask", "auto"));

    private Masker() {
    }

    /** The active kernel's name, for example {@code "scalar"} or {@code "simd-512"}. */
    public static String implementation() {
        return KERNEL.name();
    }

    /** Packs four key bytes, in the order they appear on the wire, into the int the methods take. */
    public static int key(byte k0, byte k1, byte k2, byte k3) {
        return (k0 & 0xFF) << 24 | (k1 & 0xFF) << 16 | (k2 & 0xFF) << 8 | (k3 & 0xFF);
    }

    /** Masks {@code buf[off, off+len)} in place. Returns the phase after the range. */
    public static int mask(byte[] buf, int off, int len, int key, int phase) {
        return mask(buf, off, buf, off, len, key, phase);
    }

    /**
     * Masks {@code src[srcOff, srcOff+len)} into {@code dst} at {@code dstOff}. The two ranges must
     * be the same range (in place) or not overlap. Returns the phase after the range.
     */
    public static int mask(byte[] src, int srcOff, byte[] dst, int dstOff, int len, int key, int phase) {
        Objects.checkFromIndexSize(srcOff, len, src.length);
        Objects.checkFromIndexSize(dstOff, len, dst.length);
        checkPhase(phase);
        if (key != 0 && len > 0) {
            KERNEL.mask(src, srcOff, dst, dstOff, len, key, phase);
        } else if (src != dst || srcOff != dstOff) {
            System.arraycopy(src, srcOff, dst, dstOff, len);
        }
        return (phase + len) & 3;
    }

    /** Masks the bytes between the buffer's position and limit in place, leaving position and limit alone. */
    public static int mask(ByteBuffer buf, int key, int phase) {
        return mask(buf, buf.position(), buf.remaining(), key, phase);
    }

    /** Masks {@code len} bytes of {@code buf} from absolute index {@code off}, in place. */
    public static int mask(ByteBuffer buf, int off, int len, int key, int phase) {
        Objects.checkFromIndexSize(off, len, buf.limit());
        checkPhase(phase);
        if (buf.isReadOnly()) {
            throw new IllegalArgumentException("cannot mask a read-only buffer in place");
        }
        if (key != 0 && len > 0) {
            if (buf.hasArray()) {
                int at = buf.arrayOffset() + off;
                KERNEL.mask(buf.array(), at, buf.array(), at, len, key, phase);
            } else {
                KERNEL.mask(buf, off, len, key, phase);     // a direct buffer: unmasked where the socket put it
            }
        }
        return (phase + len) & 3;
    }

    private static void checkPhase(int phase) {
        if ((phase & ~3) != 0) {
            throw new IllegalArgumentException("phase must be 0 to 3, was " + phase);
        }
    }
}
