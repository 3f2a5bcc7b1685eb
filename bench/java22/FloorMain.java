import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteOrder;

/** What the FFM floors share: the listening socket on 127.0.0.1, the entry point, and a loop no Throwable ends. */
final class FloorMain {

    /** One turn of a floor's loop. */
    interface Turn {
        void run() throws Throwable;
    }

    /** A floor made for a port. */
    interface Floor {
        Turn open(int port) throws Throwable;
    }

    static final int AF_INET = 2, SOCK_STREAM = 1, SOCK_NONBLOCK = 04000, SOCK_CLOEXEC = 02000000;
    static final int SOL_SOCKET = 1, SO_REUSEADDR = 2, IPPROTO_TCP = 6, TCP_NODELAY = 1;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final MethodHandle SOCKET = call("socket", FunctionDescriptor.of(INT, INT, INT, INT));
    private static final MethodHandle SETSOCKOPT = call("setsockopt", FunctionDescriptor.of(INT, INT, INT, INT, ValueLayout.ADDRESS, INT));
    private static final MethodHandle BIND = call("bind", FunctionDescriptor.of(INT, INT, ValueLayout.ADDRESS, INT));
    private static final MethodHandle LISTEN = call("listen", FunctionDescriptor.of(INT, INT, INT));

    private FloorMain() {
    }

    static MethodHandle call(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor, options);
    }

    /** Checks the arguments, opens the floor, prints the ready line and runs its turns for good. */
    static void main(String name, String[] args, Floor floor) throws Throwable {
        if (args.length != 1) {
            System.err.println("usage: " + name + " PORT");
            System.exit(2);
        }
        Turn turn = floor.open(Integer.parseInt(args[0]));
        System.out.println("listening on ws://127.0.0.1:" + args[0] + "/");
        System.out.flush();
        for (;;) {
            try {
                turn.run();
            } catch (Throwable t) {             // no Throwable ends the loop
                t.printStackTrace();
            }
        }
    }

    /** A listening TCP socket on 127.0.0.1:{@code port} with SO_REUSEADDR; {@code flags} are socket()'s type flags. */
    static int listen(Arena arena, int port, int flags) throws Throwable {
        int fd = (int) SOCKET.invokeExact(AF_INET, SOCK_STREAM | flags, 0);
        int ignored = (int) SETSOCKOPT.invokeExact(fd, SOL_SOCKET, SO_REUSEADDR, on(arena), 4);
        MemorySegment address = arena.allocate(16, 4);         // struct sockaddr_in, port and address in network order
        address.set(ValueLayout.JAVA_SHORT, 0, (short) AF_INET);
        address.set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 2, (short) port);
        address.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 4, 0x7F000001);
        if (fd < 0 || (int) BIND.invokeExact(fd, address, 16) < 0 || (int) LISTEN.invokeExact(fd, 4096) < 0) {
            throw new IllegalStateException("cannot listen on 127.0.0.1:" + port);
        }
        return fd;
    }

    /** TCP_NODELAY on {@code fd}, with {@code on} from {@link #on}. */
    static void noDelay(int fd, MemorySegment on) throws Throwable {
        int ignored = (int) SETSOCKOPT.invokeExact(fd, IPPROTO_TCP, TCP_NODELAY, on, 4);
    }

    /** setsockopt's "on": an int 1. */
    static MemorySegment on(Arena arena) {
        MemorySegment one = arena.allocate(INT);
        one.set(INT, 0, 1);
        return one;
    }
}
