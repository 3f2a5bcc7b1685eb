package wsjava.mask;

import java.nio.ByteBuffer;
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
 * The server's unmasking path: in place in a direct buffer (where the socket read the frame), by
 * each kernel and through {@link Masker}, against what copying the same bytes costs:
 * {@code System.arraycopy} between arrays, and a direct-to-direct bulk put. Each call touches the
 * same number of bytes; masking in place twice is the identity, so repeats stay valid.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DirectMaskBenchmark {

    @Param({"125", "1024", "16384", "65536", "1048576"})
    public int size;

    private ByteBuffer direct;
    private ByteBuffer directTarget;
    private byte[] heap;
    private byte[] heapTarget;
    private final int key = 0x37FA213D;
    private MaskKernel scalar;
    private MaskKernel simd;

    @Setup(Level.Trial)
    public void setUp() {
        heap = new byte[size];
        new Random(21).nextBytes(heap);
        heapTarget = new byte[size];
        direct = ByteBuffer.allocateDirect(size).put(heap).flip();
        directTarget = ByteBuffer.allocateDirect(size);
        scalar = ScalarMaskKernel.INSTANCE;
        simd = MaskKernels.loadVectorKernel();
        if (simd == null) {
            throw new IllegalStateException("run with --add-modules jdk.incubator.vector");
        }
    }

    @Benchmark
    public ByteBuffer directSimd() {
        simd.mask(direct, 0, size, key, 0);
        return direct;
    }

    @Benchmark
    public ByteBuffer directScalar() {
        scalar.mask(direct, 0, size, key, 0);
        return direct;
    }

    /** The public entry point the frame parser calls, dispatch and checks included. */
    @Benchmark
    public ByteBuffer directMasker() {
        Masker.mask(direct, 0, size, key, 0);
        return direct;
    }

    /** The array path of the same kernel, for comparison with the buffer path. */
    @Benchmark
    public byte[] heapSimd() {
        simd.mask(heap, 0, heap, 0, size, key, 0);
        return heap;
    }

    /** The roofline the issue names: the same bytes read and written by System.arraycopy. */
    @Benchmark
    public byte[] arraycopy() {
        System.arraycopy(heap, 0, heapTarget, 0, size);
        return heapTarget;
    }

    /** Copying between direct buffers, the other roofline for a direct path. */
    @Benchmark
    public ByteBuffer directCopy() {
        directTarget.clear();
        directTarget.put(direct.duplicate());
        return directTarget;
    }
}
