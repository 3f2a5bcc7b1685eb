import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * One io_uring, set up with raw system calls through FFM (no liburing), for one thread: entries are
 * filled in the mapped submission queue, submitted all at once by {@link #submitAndWait()}, which
 * also waits for a completion, and read back from the completion queue by {@link #drain}. Deferred
 * task work (kernel 6.1+; else without it) keeps the kernel's completion work on this thread, inside
 * that one call. x86-64's system call numbers (AArch64 has the same for io_uring).
 */
final class Ring {

    static final byte OP_ACCEPT = 13, OP_SEND = 26, OP_RECV = 27;
    /** An accept's ioprio: one entry, a completion per connection until it ends. */
    static final short ACCEPT_MULTISHOT = 1;
    /** A completion's flag: the multishot request is still armed. */
    static final int CQE_F_MORE = 1 << 1;

    private static final long SYS_IO_URING_SETUP = 425, SYS_IO_URING_ENTER = 426;
    private static final int SETUP_SINGLE_ISSUER = 1 << 12, SETUP_DEFER_TASKRUN = 1 << 13, FEAT_SINGLE_MMAP = 1;
    private static final int ENTER_GETEVENTS = 1, EINTR = 4, EAGAIN = 11;
    private static final long OFF_SQ_RING = 0, OFF_CQ_RING = 0x8000000L, OFF_SQES = 0x10000000L;
    private static final int PROT_RW = 3, MAP_SHARED_POPULATE = 0x1 | 0x8000;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MemoryLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final VarHandle RING_INT = ValueLayout.JAVA_INT.varHandle();   // acquire and release on the queues' heads and tails
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final MethodHandle MMAP = call("mmap", FunctionDescriptor.of(LONG, LONG, LONG, INT, INT, INT, LONG));
    private static final MethodHandle SETUP = call("syscall", FunctionDescriptor.of(LONG, LONG, LONG, LONG),
            Linker.Option.firstVariadicArg(1));
    // It waits for completions, so it is not critical: the GC may run meanwhile.
    private static final MethodHandle ENTER = call("syscall", FunctionDescriptor.of(LONG, LONG, LONG, LONG, LONG, LONG, LONG, LONG),
            Linker.Option.firstVariadicArg(1), Linker.Option.captureCallState("errno"));

    /** What a completion is handed to. */
    interface Completion {
        void completed(long userData, int result, int flags) throws Throwable;
    }

    private final int fd;
    private final int entries;
    private final MemorySegment callState;
    private final MemorySegment sq, cq, sqes;
    private final int sqTail, cqHead, cqTail, cqes, sqMask, cqMask;
    private int tail;                   // the submission queue's tail, ahead of the kernel's copy until submitted
    private int unsubmitted;

    Ring(Arena arena, int entries) throws Throwable {
        this.entries = entries;
        callState = arena.allocate(CALL_STATE);
        MemorySegment params = arena.allocate(120, 8);           // struct io_uring_params
        params.set(INT, 8, SETUP_SINGLE_ISSUER | SETUP_DEFER_TASKRUN);
        int ring = (int) (long) SETUP.invokeExact(SYS_IO_URING_SETUP, (long) entries, params.address());
        if (ring < 0) {                                           // a kernel before 6.1: no deferred task work
            params.fill((byte) 0);
            ring = (int) (long) SETUP.invokeExact(SYS_IO_URING_SETUP, (long) entries, params.address());
        }
        if (ring < 0) {
            throw new IllegalStateException("io_uring_setup refused");
        }
        fd = ring;
        int sqEntries = params.get(INT, 0), cqEntries = params.get(INT, 4);
        sqTail = params.get(INT, 44);                             // struct io_sqring_offsets at 40
        int sqArray = params.get(INT, 64);
        cqHead = params.get(INT, 80);                             // struct io_cqring_offsets at 80
        cqTail = params.get(INT, 84);
        cqes = params.get(INT, 100);
        long sqSize = sqArray + 4L * sqEntries, cqSize = cqes + 16L * cqEntries;
        if ((params.get(INT, 20) & FEAT_SINGLE_MMAP) != 0) {
            sq = map(Math.max(sqSize, cqSize), OFF_SQ_RING);
            cq = sq;
        } else {
            sq = map(sqSize, OFF_SQ_RING);
            cq = map(cqSize, OFF_CQ_RING);
        }
        sqes = map(64L * sqEntries, OFF_SQES);
        sqMask = sq.get(INT, (long) params.get(INT, 48));
        cqMask = cq.get(INT, (long) params.get(INT, 88));
        for (int i = 0; i < sqEntries; i++) {
            sq.set(INT, sqArray + 4L * i, i);                     // entry i of the queue is SQE i, for good
        }
        tail = (int) RING_INT.getAcquire(sq, (long) sqTail);
    }

    private static MethodHandle call(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor, options);
    }

    private MemorySegment map(long size, long offset) throws Throwable {
        long at = (long) MMAP.invokeExact(0L, size, PROT_RW, MAP_SHARED_POPULATE, fd, offset);
        if (at == -1) {
            throw new IllegalStateException("cannot map the io_uring at " + offset);
        }
        return MemorySegment.ofAddress(at).reinterpret(size);
    }

    /** Fills the next submission entry (submitted by the next {@link #submitAndWait()}); returns it, for {@link #set}. */
    long prepare(byte opcode, int socket, long address, int length, long userData) {
        long e = 64L * (tail & sqMask);
        for (int i = 0; i < 64; i += 8) {
            sqes.set(LONG, e + i, 0L);
        }
        sqes.set(ValueLayout.JAVA_BYTE, e, opcode);
        sqes.set(INT, e + 4, socket);
        sqes.set(LONG, e + 16, address);
        sqes.set(INT, e + 24, length);
        sqes.set(LONG, e + 32, userData);
        tail++;
        unsubmitted++;
        return e;
    }

    /** Sets the 32-bit field at {@code at} of a prepared entry (28: the send, receive or accept flags). */
    void set(long entry, int at, int value) {
        sqes.set(INT, entry + at, value);
    }

    /** Sets the 16-bit field at {@code at} of a prepared entry (2: ioprio). */
    void set(long entry, int at, short value) {
        sqes.set(ValueLayout.JAVA_SHORT, entry + at, value);
    }

    /** Submits every prepared entry and waits until at least one completion is there (or a signal came). */
    void submitAndWait() throws Throwable {
        RING_INT.setRelease(sq, (long) sqTail, tail);
        long n = (long) ENTER.invokeExact(callState, SYS_IO_URING_ENTER, (long) fd, (long) unsubmitted, 1L, (long) ENTER_GETEVENTS, 0L, 0L);
        if (n >= 0) {
            unsubmitted -= (int) n;
            return;
        }
        int errno = (int) ERRNO.get(callState, 0L);
        if (errno != EINTR && errno != EAGAIN) {
            throw new IllegalStateException("io_uring_enter failed, errno " + errno);
        }
    }

    /**
     * Hands the completions there are to {@code to}, at most one queue's worth less one, so that
     * handlers preparing one entry each cannot overrun the submission queue. A handler's Throwable
     * is reported with its user data and the rest go on.
     */
    void drain(Completion to, java.util.function.LongConsumer failed) {
        int head = (int) RING_INT.getAcquire(cq, (long) cqHead);
        int end = (int) RING_INT.getAcquire(cq, (long) cqTail);
        for (int handled = 0; head != end && handled < entries - 1; head++, handled++) {
            long at = cqes + 16L * (head & cqMask);
            long data = cq.get(LONG, at);
            try {
                to.completed(data, cq.get(INT, at + 8), cq.get(INT, at + 12));
            } catch (Throwable t) {
                t.printStackTrace();
                failed.accept(data);
            }
        }
        RING_INT.setRelease(cq, (long) cqHead, head);
    }
}
