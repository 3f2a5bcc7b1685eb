package wsjava.mask;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API path: whole vectors of the widest shape the CPU has (64 bytes with AVX-512),
 * XORed with the key broadcast as ints and viewed as bytes. What is left after the last full
 * vector goes to the scalar word loop. Compiled for Java 17 into the jar's
 * {@code META-INF/versions/17}; only the Java 17 {@code VectorKernels} refers to it.
 *
 * <p>Buffers are masked with vectors only where the JDK still has {@code ByteVector.fromByteBuffer}
 * (16 to 18): JDK 19 replaced it with {@code fromMemorySegment}, which Java 17 bytecode cannot name,
 * and a call to it there fails with {@code NoSuchMethodError} on every message. There the buffer
 * path is the scalar word loop (as fast here at 16 KiB: 920 against 980 ns with the server's offsets).
 */
final class VectorMaskKernel implements MaskKernel {

    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final int STEP = BYTES.length();
    /**
     * Shorter payloads go to the scalar word loop: making the key vector costs more than the vectors
     * save (64 B: 18 ns against 8 ns, equal at 256 B, measured with AVX2 on JDK 17), and inside the
     * server's read path it allocated (JFR: a fifth of a 64 B echo's allocation).
     */
    static final int VECTOR_FROM = 256;

    private final boolean vectorBuffers;

    /** {@code vectorBuffers}: mask buffers with vectors too (only where {@link #jdkHasBufferVectors()}). */
    VectorMaskKernel(boolean vectorBuffers) {
        this.vectorBuffers = vectorBuffers;
    }

    /** Whether this JDK links {@code ByteVector.fromByteBuffer} and {@code intoByteBuffer} (16 to 18 do). */
    static boolean jdkHasBufferVectors() {
        try {
            ByteBuffer probe = ByteBuffer.allocateDirect(BYTES.length());
            ByteVector.fromByteBuffer(BYTES, probe, 0, ByteOrder.LITTLE_ENDIAN).intoByteBuffer(probe, 0, ByteOrder.LITTLE_ENDIAN);
            return true;
        } catch (LinkageError e) {
            return false;
        }
    }

    @Override
    public String name() {
        return "simd-" + BYTES.vectorBitSize() + (vectorBuffers ? "" : "-arrays");
    }

    @Override
    public boolean isUsable() {
        // Narrower than 128 bits means the JIT has no real vector unit to map onto.
        return BYTES.vectorBitSize() >= 128 && INTS.vectorBitSize() == BYTES.vectorBitSize();
    }

    /** The key repeated across a vector, starting at key byte {@code phase}. */
    private static ByteVector keyVector(int key, int phase) {
        // Vector lanes are little-endian, so int lane 0's low byte is byte lane 0: key byte `phase`.
        int littleEndianKey = Integer.reverseBytes(Integer.rotateLeft(key, 8 * phase));
        return IntVector.broadcast(INTS, littleEndianKey).reinterpretAsBytes();
    }

    @Override
    public void mask(byte[] src, int srcOff, byte[] dst, int dstOff, int len, int key, int phase) {
        int i = 0;
        if (len >= Math.max(STEP, VECTOR_FROM)) {
            ByteVector keyBytes = keyVector(key, phase);
            // Four vectors per iteration keep more loads in flight (about 15% faster at 16 KiB here).
            int blocksEnd = len - len % (4 * STEP);
            for (; i < blocksEnd; i += 4 * STEP) {
                ByteVector a = ByteVector.fromArray(BYTES, src, srcOff + i);
                ByteVector b = ByteVector.fromArray(BYTES, src, srcOff + i + STEP);
                ByteVector c = ByteVector.fromArray(BYTES, src, srcOff + i + 2 * STEP);
                ByteVector d = ByteVector.fromArray(BYTES, src, srcOff + i + 3 * STEP);
                a.lanewise(VectorOperators.XOR, keyBytes).intoArray(dst, dstOff + i);
                b.lanewise(VectorOperators.XOR, keyBytes).intoArray(dst, dstOff + i + STEP);
                c.lanewise(VectorOperators.XOR, keyBytes).intoArray(dst, dstOff + i + 2 * STEP);
                d.lanewise(VectorOperators.XOR, keyBytes).intoArray(dst, dstOff + i + 3 * STEP);
            }
            int vectorsEnd = len - len % STEP;
            for (; i < vectorsEnd; i += STEP) {
                ByteVector.fromArray(BYTES, src, srcOff + i)
                        .lanewise(VectorOperators.XOR, keyBytes)
                        .intoArray(dst, dstOff + i);
            }
        }
        if (i < len) {
            // STEP is a multiple of 4, so the phase at i is still `phase`.
            ScalarMaskKernel.INSTANCE.mask(src, srcOff + i, dst, dstOff + i, len - i, key, phase);
        }
    }

    /** The same on a buffer (a direct one: the socket's read buffer), in place, also four vectors at a time where the JDK can. */
    @Override
    public void mask(ByteBuffer buf, int off, int len, int key, int phase) {
        int i = 0;
        if (vectorBuffers && len >= Math.max(STEP, VECTOR_FROM)) {
            ByteVector keyBytes = keyVector(key, phase);
            int blocksEnd = len - len % (4 * STEP);
            for (; i < blocksEnd; i += 4 * STEP) {
                ByteVector a = ByteVector.fromByteBuffer(BYTES, buf, off + i, ByteOrder.LITTLE_ENDIAN);
                ByteVector b = ByteVector.fromByteBuffer(BYTES, buf, off + i + STEP, ByteOrder.LITTLE_ENDIAN);
                ByteVector c = ByteVector.fromByteBuffer(BYTES, buf, off + i + 2 * STEP, ByteOrder.LITTLE_ENDIAN);
                ByteVector d = ByteVector.fromByteBuffer(BYTES, buf, off + i + 3 * STEP, ByteOrder.LITTLE_ENDIAN);
                a.lanewise(VectorOperators.XOR, keyBytes).intoByteBuffer(buf, off + i, ByteOrder.LITTLE_ENDIAN);
                b.lanewise(VectorOperators.XOR, keyBytes).intoByteBuffer(buf, off + i + STEP, ByteOrder.LITTLE_ENDIAN);
                c.lanewise(VectorOperators.XOR, keyBytes).intoByteBuffer(buf, off + i + 2 * STEP, ByteOrder.LITTLE_ENDIAN);
                d.lanewise(VectorOperators.XOR, keyBytes).intoByteBuffer(buf, off + i + 3 * STEP, ByteOrder.LITTLE_ENDIAN);
            }
            int vectorsEnd = len - len % STEP;
            for (; i < vectorsEnd; i += STEP) {
                ByteVector.fromByteBuffer(BYTES, buf, off + i, ByteOrder.LITTLE_ENDIAN)
                        .lanewise(VectorOperators.XOR, keyBytes)
                        .intoByteBuffer(buf, off + i, ByteOrder.LITTLE_ENDIAN);
            }
        }
        if (i < len) {
            ScalarMaskKernel.INSTANCE.mask(buf, off + i, len - i, key, phase);
        }
    }
}
