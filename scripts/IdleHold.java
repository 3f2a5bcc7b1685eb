import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds N idle WebSocket connections to a port (opened as the echo benchmark's idle phase opens
 * them, with wsjava.bench.EchoLoadClient), prints "held N", and closes them when stdin ends.
 * Run by scripts/idle-memory.sh: java -cp bench/target/wsjava-bench.jar scripts/IdleHold.java PORT N
 */
public class IdleHold {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int count = Integer.parseInt(args[1]);
        List<SocketChannel> open = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            open.add(wsjava.bench.EchoLoadClient.connect(port));
        }
        System.out.println("held " + open.size());
        System.out.flush();
        while (System.in.read() >= 0) {
            // until stdin closes
        }
        for (SocketChannel c : open) {
            c.close();
        }
    }
}
