import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.util.Arrays;
import wsjava.bench.FloorConnection;

/**
 * The floor ({@code bench/c/wsfloor.c}) in Java on io_uring, through FFM (JDK 22+): the question it
 * answers is whether a transport of our own on io_uring would beat epoll from Java, before one is
 * built. One ring set up with raw system calls (no liburing), a multishot accept, and per
 * connection one receive, then one send of its echo, then the next receive: the same one read and
 * one write per message as the floor, but every connection's reads and writes of a turn go to the
 * kernel in one {@code io_uring_enter}, which also waits for the next completions. A connection
 * has a buffer of its own (malloc'd, so untouched pages cost nothing), because the kernel fills
 * receives while others are processed. The framing is {@link FloorConnection}'s, as in FfmFloor and
 * NioFloor; the ring is {@link Ring}. Linux on x86-64. Compiled and started by the echo bench (FfmFloorPeer):
 *
 *   java --enable-native-access=ALL-UNNAMED -cp DIR:wsjava-bench.jar UringFloor PORT
 */
public final class UringFloor {

    private static final int MSG_NOSIGNAL = 0x4000;
    private static final int EINTR = 4, EAGAIN = 11, ENTRIES = 4096;
    /** What a completion is for, in the low bits of its user data; the descriptor is above. */
    private static final int ACCEPTED = 1, RECEIVED = 2, SENT = 3;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final MethodHandle CLOSE = FloorMain.call("close", FunctionDescriptor.of(INT, INT));
    private static final MethodHandle MALLOC = FloorMain.call("malloc", FunctionDescriptor.of(LONG, LONG));
    private static final MethodHandle FREE = FloorMain.call("free", FunctionDescriptor.ofVoid(LONG));

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment one = FloorMain.on(arena);
    private final int listener;
    private final Ring ring;
    private final Ring.Completion onCompletion = this::completed;
    private final java.util.function.LongConsumer onFailure = this::failed;
    private Link[] links = new Link[1024];   // by descriptor

    /** One connection: its framing, its buffer, and the send in flight. */
    private static final class Link {
        final FloorConnection framing = new FloorConnection();
        final long base;
        final ByteBuffer view;
        long sendAt;
        int sendLeft;
        boolean answered;               // the 101 is going out; what came after the head is echoed once it is sent

        Link(long base) {
            this.base = base;
            this.view = FloorConnection.buffer(MemorySegment.ofAddress(base).reinterpret(FloorConnection.BUFFER).asByteBuffer());
        }
    }

    private UringFloor(int port) throws Throwable {
        // Blocking sockets: io_uring waits on them itself; on a non-blocking one it would hand back EAGAIN.
        listener = FloorMain.listen(arena, port, FloorMain.SOCK_CLOEXEC);
        ring = new Ring(arena, ENTRIES);
        accept();
    }

    /** Queues a multishot accept: one entry, a completion per connection until it ends. */
    private void accept() {
        long e = ring.prepare(Ring.OP_ACCEPT, listener, 0, 0, (long) listener << 8 | ACCEPTED);
        ring.set(e, 2, Ring.ACCEPT_MULTISHOT);
        ring.set(e, 28, FloorMain.SOCK_CLOEXEC);
    }

    public static void main(String[] args) throws Throwable {
        FloorMain.main("UringFloor", args, port -> new UringFloor(port)::turn);
    }

    /** Submits what the last turn queued, waits for at least one completion, and handles all there are. */
    private void turn() throws Throwable {
        ring.submitAndWait();
        ring.drain(onCompletion, onFailure);
    }

    /** A completion's handling threw (a bug): its connection ends, the loop goes on. */
    private void failed(long userData) {
        int fd = (int) (userData >>> 8);
        if (fd != listener) {
            try {
                drop(fd);
            } catch (Throwable ignored) {
                // closing anyway
            }
        }
    }

    private void completed(long userData, int result, int flags) throws Throwable {
        completed((int) userData & 0xFF, (int) (userData >>> 8), result, flags);
    }

    private void completed(int what, int fd, int result, int flags) throws Throwable {
        if (what == ACCEPTED) {
            if (result >= 0) {
                opened(result);
            }
            if ((flags & Ring.CQE_F_MORE) == 0) {     // the multishot accept ended (an error, or the queue overflowed): arm it again
                accept();
            }
            return;
        }
        Link link = fd < links.length ? links[fd] : null;
        if (link == null) {
            return;
        }
        if (result < 0 && (-result == EINTR || -result == EAGAIN)) {
            if (what == RECEIVED) {
                receive(fd, link);
            } else {
                send(fd, link);
            }
            return;
        }
        boolean gone = what == RECEIVED ? received(fd, link, result) : sent(fd, link, result);
        if (gone) {
            drop(fd);
        }
    }

    private void opened(int fd) throws Throwable {
        FloorMain.noDelay(fd, one);
        long base = (long) MALLOC.invokeExact((long) FloorConnection.BUFFER);
        if (base == 0) {
            int ignored = (int) CLOSE.invokeExact(fd);
            return;
        }
        if (fd >= links.length) {
            links = Arrays.copyOf(links, Math.max(fd + 1, links.length * 2));
        }
        Link link = new Link(base);
        links[fd] = link;
        receive(fd, link);
    }

    private void drop(int fd) throws Throwable {
        Link link = links[fd];
        if (link != null) {
            links[fd] = null;
            FREE.invokeExact(link.base);
            int ignored = (int) CLOSE.invokeExact(fd);
        }
    }

    /** Queues the next receive: the request head while upgrading, else frames after the carried header bytes. */
    private void receive(int fd, Link link) {
        FloorConnection c = link.framing;
        if (c.upgrading()) {
            ring.prepare(Ring.OP_RECV, fd, link.base, c.headRoom(), (long) fd << 8 | RECEIVED);
        } else {
            int carried = c.restoreCarry(link.view);
            ring.prepare(Ring.OP_RECV, fd, link.base + carried, FloorConnection.BUFFER - carried, (long) fd << 8 | RECEIVED);
        }
    }

    private void send(int fd, Link link) {
        ring.set(ring.prepare(Ring.OP_SEND, fd, link.sendAt, link.sendLeft, (long) fd << 8 | SENT), 28, MSG_NOSIGNAL);
    }

    /** A receive completed with {@code n} bytes: echo what it framed, or receive again. True when the connection is done. */
    private boolean received(int fd, Link link, int n) throws Throwable {
        if (n <= 0) {
            return true;
        }
        FloorConnection c = link.framing;
        int from, len;
        if (c.upgrading()) {
            byte[] answer = c.upgrade(link.view, n);
            if (answer == null) {
                if (c.headRoom() == 0) {
                    return true;
                }
                receive(fd, link);
                return false;
            }
            if (answer == FloorConnection.REFUSED) {
                return true;
            }
            from = FloorConnection.BUFFER - answer.length;       // a request's leftover (under 8 KiB) never reaches it
            MemorySegment.copy(answer, 0, MemorySegment.ofAddress(link.base).reinterpret(FloorConnection.BUFFER),
                    ValueLayout.JAVA_BYTE, from, answer.length);
            len = answer.length;
            link.answered = true;
        } else {
            len = c.reframe(link.view, c.carried() + n);     // receive() put them at the buffer's start, the bytes after them
            if (len < 0) {
                return true;
            }
            from = c.outStart();
        }
        return output(fd, link, from, len);
    }

    /** Sends {@code len} bytes from {@code from} in the connection's buffer; with nothing to send, goes on at once. */
    private boolean output(int fd, Link link, int from, int len) {
        if (len == 0) {
            return next(fd, link);
        }
        link.sendAt = link.base + from;
        link.sendLeft = len;
        send(fd, link);
        return false;
    }

    /** A send completed: the rest of a short one, the echo of what came after the head, or the next receive. */
    private boolean sent(int fd, Link link, int n) {
        if (n < 0) {
            return true;
        }
        link.sendAt += n;
        link.sendLeft -= n;
        if (link.sendLeft > 0) {
            send(fd, link);
            return false;
        }
        if (link.answered) {
            link.answered = false;
            int after = link.framing.leftover();
            if (after > 0) {
                int len = link.framing.reframe(link.view, after);
                return len < 0 || output(fd, link, link.framing.outStart(), len);
            }
        }
        return next(fd, link);
    }

    /** All output is out: done after an echoed close, else receive again. */
    private boolean next(int fd, Link link) {
        if (link.framing.closed()) {
            return true;
        }
        receive(fd, link);
        return false;
    }
}
