package wsjava.mask;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The portable path: 8-byte little-endian words XORed with the key rotated to the current phase,
 * single bytes only for the tail. C2 compiles the word loop to plain 64-bit loads and stores
 * (it does not auto-vectorize {@code b[i] ^= k[i & 3]}, which is why the byte loop is slow).
 */
final class ScalarMaskKernel implements MaskKernel {

    static final ScalarMaskKernel INSTANCE = new ScalarMaskKernel();

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BUFFER_LONGS =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private ScalarMaskKernel() {
    }

    @Override
    public String name() {
        return "scalar";
    }

    /**
     * The key as eight little-endian bytes starting at key byte {@code phase}: loading a word of
     * payload little-endian puts payload byte i in bits 8i..8i+7, which this lines up with.
     */
    static long wordMask(int key, int phase) {
        int rotated = Integer.rotateLeft(key, 8 * phase);
        long le = Integer.reverseBytes(rotated) & 0xFFFF_FFFFL;
        return le | (le << 32);
    }

    static int keyByte(int key, int index) {
        return key >>> (24 - 8 * (index & 3));
    }

    @Override
    public void mask(byte[] src, int srcOff, byte[] dst, int dstOff, int len, int key, int phase) {
        long word = wordMask(key, phase);
        int i = 0;
        int wordsEnd = len & ~7;
        for (; i < wordsEnd; i += 8) {
            long v = (long) LONGS.get(src, srcOff + i);
            LONGS.set(dst, dstOff + i, v ^ word);
        }
        for (; i < len; i++) {
            dst[dstOff + i] = (byte) (src[srcOff + i] ^ keyByte(key, phase + i));
        }
    }

    @Override
    public void mask(ByteBuffer buf, int off, int len, int key, int phase) {
        long word = wordMask(key, phase);
        int i = 0;
        int wordsEnd = len & ~7;
        for (; i < wordsEnd; i += 8) {
            long v = (long) BUFFER_LONGS.get(buf, off + i);
            BUFFER_LONGS.set(buf, off + i, v ^ word);
        }
        for (; i < len; i++) {
            buf.put(off + i, (byte) (buf.get(off + i) ^ keyByte(key, phase + i)));
        }
    }
}
