package wsjava.mask;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Masking variants side by side. It lives in package wsjava.mask to reach the kernels directly, so
 * each variant is timed without the dispatch in {@link Masker} (which "ours" includes on purpose).
 *
 * <p>"inPlace" masks the payload where it is (for arraycopy: copies into a preallocated array, the
 * same number of bytes read and written); "fresh" returns a new array, as the article's mask7 does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MaskBenchmark {

    private static final VarHandle BE_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    @Param({"125", "1024", "16384", "1048576", "16777216"})
    public int size;

    @Param({"inPlace", "fresh"})
    public String mode;

    private byte[] payload;
    private byte[] target;
    private byte[] keyBytes;
    private int key;
    private MaskKernel scalar;
    private MaskKernel simd;

    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(20);
        payload = new byte[size];
        random.nextBytes(payload);
        target = new byte[size];
        key = 0x37FA213D;
        keyBytes = new byte[] {0x37, (byte) 0xFA, 0x21, 0x3D};
        scalar = ScalarMaskKernel.INSTANCE;
        simd = MaskKernels.loadVectorKernel();
        if (simd == null) {
            throw new IllegalStateException("run with --add-modules jdk.incubator.vector");
        }
    }

    /** In place means literally in place: masking twice is the identity, so repeats stay valid. */
    private byte[] out() {
        return mode.equals("fresh") ? new byte[size] : payload;
    }

    /** The article's mask6: one byte at a time with i % 4. */
    @Benchmark
    public byte[] mask6Style() {
        byte[] dst = out();
        byte[] src = payload;
        for (int i = 0; i < src.length; i++) {
            dst[i] = (byte) (src[i] ^ keyBytes[i % 4]);
        }
        return dst;
    }

    /** The article's mask7: a nested loop over the 4 key bytes, then the tail. */
    @Benchmark
    public byte[] mask7Style() {
        byte[] dst = out();
        byte[] src = payload;
        int whole = src.length - src.length % 4;
        for (int i = 0; i < whole; i += 4) {
            for (int j = 0; j < 4; j++) {
                dst[i + j] = (byte) (src[i + j] ^ keyBytes[j]);
            }
        }
        for (int i = whole; i < src.length; i++) {
            dst[i] = (byte) (src[i] ^ keyBytes[i % 4]);
        }
        return dst;
    }

    /** Netty's WebSocket08FrameDecoder style: 8 bytes at a time with a doubled int mask, big-endian. */
    @Benchmark
    public byte[] nettyStyle() {
        byte[] dst = out();
        byte[] src = payload;
        long longMask = (key & 0xFFFFFFFFL) | ((long) key << 32);
        int i = 0;
        int end = src.length - 7;
        for (; i < end; i += 8) {
            BE_LONGS.set(dst, i, (long) BE_LONGS.get(src, i) ^ longMask);
        }
        for (; i < src.length; i++) {
            dst[i] = (byte) (src[i] ^ keyBytes[i & 3]);
        }
        return dst;
    }

    @Benchmark
    public byte[] wsjavaScalar() {
        byte[] dst = out();
        scalar.mask(payload, 0, dst, 0, size, key, 0);
        return dst;
    }

    @Benchmark
    public byte[] wsjavaSimd() {
        byte[] dst = out();
        simd.mask(payload, 0, dst, 0, size, key, 0);
        return dst;
    }

    /** The public entry point, dispatch included: what the server and WL actually call. */
    @Benchmark
    public byte[] wsjavaMasker() {
        byte[] dst = out();
        Masker.mask(payload, 0, dst, 0, size, key, 0);
        return dst;
    }

    /** The memory roofline: the same bytes read and written, no XOR. */
    @Benchmark
    public byte[] arraycopy() {
        if (mode.equals("fresh")) {
            return Arrays.copyOf(payload, size);
        }
        System.arraycopy(payload, 0, target, 0, size);
        return target;
    }
}
