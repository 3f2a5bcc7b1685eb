package wsjava.mask;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MaskerTest {

    private static final Random RANDOM = new Random(6455);

    /** The definition, one byte at a time: what every kernel must agree with. */
    static byte[] reference(byte[] src, int off, int len, int key, int phase) {
        byte[] out = new byte[len];
        for (int i = 0; i < len; i++) {
            int k = key >>> (24 - 8 * ((phase + i) & 3));
            out[i] = (byte) (src[off + i] ^ k);
        }
        return out;
    }

    static List<MaskKernel> kernels() {
        List<MaskKernel> kernels = new ArrayList<>();
        kernels.add(ScalarMaskKernel.INSTANCE);
        MaskKernel vector = MaskKernels.loadVectorKernel();
        if (vector != null) {
            kernels.add(vector);
        }
        return kernels;
    }

    @Test
    void vectorKernelLoadsWhenTheModuleIsPresent() {
        // Surefire runs with --add-modules jdk.incubator.vector, so the SIMD path must be tested too.
        MaskKernel vector = MaskKernels.loadVectorKernel();
        assertTrue(vector != null && vector.name().startsWith("simd-"), "vector kernel did not load");
        assertEquals(vector.name(), Masker.implementation());
    }

    @Test
    void everyLengthPhaseAndAlignmentMatchesTheDefinitionInPlace() {
        for (MaskKernel kernel : kernels()) {
            for (int len = 0; len <= 300; len++) {
                for (int phase = 0; phase < 4; phase++) {
                    for (int off = 0; off < 8; off++) {
                        int key = RANDOM.nextInt();
                        byte[] buf = randomBytes(len + off + 8);
                        byte[] expected = reference(buf, off, len, key, phase);
                        byte[] before = buf.clone();
                        kernel.mask(buf, off, buf, off, len, key, phase);
                        assertArrayEquals(expected, Arrays.copyOfRange(buf, off, off + len),
                                () -> kernel.name() + " len " + buf.length);
                        assertUntouchedOutside(before, buf, off, len);
                    }
                }
            }
        }
    }

    @Test
    void everyLengthPhaseAndAlignmentMatchesTheDefinitionIntoAnotherArray() {
        for (MaskKernel kernel : kernels()) {
            for (int len = 0; len <= 300; len++) {
                for (int phase = 0; phase < 4; phase++) {
                    for (int off = 0; off < 8; off++) {
                        int dstOff = (off * 3) % 8;
                        int key = RANDOM.nextInt();
                        byte[] src = randomBytes(len + off);
                        byte[] srcCopy = src.clone();
                        byte[] dst = randomBytes(len + dstOff + 5);
                        byte[] dstBefore = dst.clone();
                        kernel.mask(src, off, dst, dstOff, len, key, phase);
                        assertArrayEquals(reference(src, off, len, key, phase), Arrays.copyOfRange(dst, dstOff, dstOff + len));
                        assertArrayEquals(srcCopy, src, "source must not change");
                        assertUntouchedOutside(dstBefore, dst, dstOff, len);
                    }
                }
            }
        }
    }

    @Test
    void largeRandomPayloadsMatchTheDefinition() {
        for (MaskKernel kernel : kernels()) {
            for (int len : new int[] {65_536, 1 << 20, (1 << 20) + 13}) {
                int key = RANDOM.nextInt();
                byte[] src = randomBytes(len + 3);
                byte[] dst = new byte[len];
                kernel.mask(src, 3, dst, 0, len, key, 2);
                assertArrayEquals(reference(src, 3, len, key, 2), dst, kernel.name());
            }
        }
    }

    @Test
    void maskingTwiceGivesTheInputBack() {
        byte[] data = randomBytes(10_000);
        byte[] copy = data.clone();
        int key = 0x12345678;
        Masker.mask(data, 0, data.length, key, 0);
        assertNotEquals(Arrays.toString(copy), Arrays.toString(data));
        Masker.mask(data, 0, data.length, key, 0);
        assertArrayEquals(copy, data);
    }

    @Test
    void pieceByPieceEqualsAllAtOnce() {
        byte[] data = randomBytes(5_000);
        int key = RANDOM.nextInt();
        byte[] whole = reference(data, 0, data.length, key, 0);
        byte[] pieces = data.clone();
        int phase = 0;
        int at = 0;
        while (at < pieces.length) {
            int n = Math.min(pieces.length - at, 1 + RANDOM.nextInt(97));
            phase = Masker.mask(pieces, at, n, key, phase);
            at += n;
        }
        assertArrayEquals(whole, pieces);
        assertEquals(data.length & 3, phase);
    }

    @Test
    void returnsThePhaseAfterTheRange() {
        byte[] b = new byte[10];
        assertEquals(3, Masker.mask(b, 0, 7, 1, 0));
        assertEquals(0, Masker.mask(b, 0, 1, 1, 3));
        assertEquals(2, Masker.mask(b, 0, 0, 1, 2));
    }

    @Test
    void zeroKeyLeavesDataAloneAndStillCopies() {
        byte[] data = randomBytes(100);
        byte[] copy = data.clone();
        Masker.mask(data, 0, 100, 0, 1);
        assertArrayEquals(copy, data);
        byte[] dst = new byte[100];
        Masker.mask(data, 0, dst, 0, 100, 0, 0);
        assertArrayEquals(copy, dst);
    }

    @Test
    void rfcSection57MaskedHello() {
        // 0x81 0x85 0x37 0xfa 0x21 0x3d 0x7f 0x9f 0x4d 0x51 0x58: a masked text frame "Hello"
        byte[] payload = {0x7f, (byte) 0x9f, 0x4d, 0x51, 0x58};
        int key = Masker.key((byte) 0x37, (byte) 0xfa, (byte) 0x21, (byte) 0x3d);
        Masker.mask(payload, 0, payload.length, key, 0);
        assertEquals("Hello", new String(payload, java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Test
    void heapAndDirectBuffersMatchTheDefinition() {
        for (boolean direct : new boolean[] {false, true}) {
            for (int len = 0; len <= 100; len++) {
                for (int phase = 0; phase < 4; phase++) {
                    int key = RANDOM.nextInt();
                    byte[] data = randomBytes(len + 10);
                    ByteBuffer buf = direct ? ByteBuffer.allocateDirect(data.length) : ByteBuffer.allocate(data.length);
                    buf.put(data).clear();
                    buf.position(3).limit(3 + len);
                    int end = Masker.mask(buf, key, phase);
                    assertEquals((phase + len) & 3, end);
                    assertEquals(3, buf.position(), "position is left alone");
                    byte[] got = new byte[len];
                    buf.get(got);
                    assertArrayEquals(reference(data, 3, len, key, phase), got);
                }
            }
        }
    }

    /**
     * Each kernel's own buffer path, from empty to several times 16 KiB (whole vectors, blocks of
     * four, the tail), at every offset and phase, in direct buffers and in a heap buffer that
     * starts inside its array.
     */
    @Test
    void everyKernelMasksBuffersInPlace() {
        int[] lengths = {0, 1, 7, 63, 64, 65, 200, 256, 1000, 4099, 16383, 16384, 16385, 40001};
        for (MaskKernel kernel : kernels()) {
            for (boolean direct : new boolean[] {true, false}) {
                for (int len : lengths) {
                    for (int phase = 0; phase < 4; phase++) {
                        for (int off = 0; off < 5; off++) {
                            checkBufferInPlace(kernel, direct, len, phase, off);
                        }
                    }
                }
            }
        }
    }

    private static void checkBufferInPlace(MaskKernel kernel, boolean direct, int len, int phase, int off) {
        int key = RANDOM.nextInt();
        byte[] data = randomBytes(len + off + 8);
        ByteBuffer buf = direct ? ByteBuffer.allocateDirect(data.length)
                : ByteBuffer.allocate(data.length + 7).position(7).slice();
        buf.put(data).clear();
        kernel.mask(buf, off, len, key, phase);
        byte[] got = new byte[data.length];
        buf.get(0, got);
        assertArrayEquals(reference(data, off, len, key, phase), Arrays.copyOfRange(got, off, off + len),
                kernel.name() + (direct ? " direct" : " heap") + " len " + len + " phase " + phase + " offset " + off);
        assertArrayEquals(Arrays.copyOfRange(data, 0, off), Arrays.copyOfRange(got, 0, off), "bytes before untouched");
        assertArrayEquals(Arrays.copyOfRange(data, off + len, data.length),
                Arrays.copyOfRange(got, off + len, data.length), "bytes after untouched");
    }

    @Test
    void slicedHeapBufferUsesItsArrayOffset() {
        byte[] data = randomBytes(64);
        ByteBuffer slice = ByteBuffer.wrap(data.clone()).position(10).slice();
        Masker.mask(slice, 0, 20, 0xA1B2C3D4, 1);
        byte[] got = new byte[20];
        slice.get(0, got);
        assertArrayEquals(reference(data, 10, 20, 0xA1B2C3D4, 1), got);
    }

    @Test
    void rejectsBadRangesAndPhases() {
        byte[] b = new byte[8];
        assertThrows(IndexOutOfBoundsException.class, () -> Masker.mask(b, 4, 5, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> Masker.mask(b, 0, 4, 1, 4));
        assertThrows(IllegalArgumentException.class, () -> Masker.mask(ByteBuffer.allocate(4).asReadOnlyBuffer(), 1, 0));
    }

    @Test
    void scalarCanBeForced() {
        assertEquals("scalar", MaskKernels.select("scalar").name());
    }

    private static void assertUntouchedOutside(byte[] before, byte[] after, int off, int len) {
        for (int i = 0; i < before.length; i++) {
            if (i < off || i >= off + len) {
                assertEquals(before[i], after[i], "byte " + i + " outside the range changed");
            }
        }
    }

    static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }
}
