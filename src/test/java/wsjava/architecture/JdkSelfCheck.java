package wsjava.architecture;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import wsjava.cli.EchoListener;
import wsjava.mask.Masker;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;

/**
 * Run in a child JVM by {@link EveryJdkTest} with the kernel expected ("simd" or "scalar"): on
 * the JDK it runs on, checks that kernel was selected, masks arrays and direct buffers with it and echoes messages through the server to the JDK's own
 * WebSocket client. Prints one line and exits 0, or prints what failed and exits 1.
 */
public final class JdkSelfCheck {

    private static final Random RANDOM = new Random(20);

    public static void main(String[] args) throws Exception {
        String where = "Java " + Runtime.version() + ", kernel " + Masker.implementation();
        try {
            // "simd" (started with jdk.incubator.vector) or "scalar": a silent fallback would test nothing.
            if (!Masker.implementation().startsWith(args[0])) {
                throw new AssertionError("expected a " + args[0] + " kernel");
            }
            checkMasking();
            checkEcho();
        } catch (Throwable e) {
            System.out.println("FAILED on " + where + ": " + e);
            e.printStackTrace(System.out);
            System.exit(1);
        }
        System.out.println("ok on " + where);
        System.exit(0);
    }

    private static byte expected(byte b, int key, int phase, int i) {
        return (byte) (b ^ (key >>> (24 - 8 * ((phase + i) & 3))));
    }

    private static void checkMasking() {
        for (int len : new int[] {0, 7, 64, 255, 256, 257, 1000, 4096, 16 * 1024 + 13, 40_001}) {
            for (int off = 0; off < 8; off += 3) {
                int key = RANDOM.nextInt();
                int phase = off & 3;
                byte[] data = new byte[off + len + 8];
                RANDOM.nextBytes(data);
                byte[] array = data.clone();
                Masker.mask(array, off, len, key, phase);
                ByteBuffer direct = ByteBuffer.allocateDirect(data.length);
                direct.put(data).clear();
                Masker.mask(direct, off, len, key, phase);
                for (int i = 0; i < data.length; i++) {
                    byte want = i >= off && i < off + len ? expected(data[i], key, phase, i - off) : data[i];
                    if (array[i] != want || direct.get(i) != want) {
                        throw new AssertionError("masking " + len + " bytes at offset " + off + ": byte " + i + " differs");
                    }
                }
            }
        }
    }

    private static void checkEcho() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        try {
            LinkedBlockingQueue<byte[]> echoes = new LinkedBlockingQueue<>();
            WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/"), new BinaryCollector(echoes))
                    .get(10, TimeUnit.SECONDS);
            for (int size : new int[] {64, 16 * 1024, 1 << 20}) {
                byte[] message = new byte[size];
                RANDOM.nextBytes(message);
                ws.sendBinary(ByteBuffer.wrap(message), true).get(10, TimeUnit.SECONDS);
                byte[] echo = echoes.poll(10, TimeUnit.SECONDS);
                if (!Arrays.equals(message, echo)) {
                    throw new AssertionError("the echo of " + size + " bytes " + (echo == null ? "did not come" : "differs"));
                }
            }
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
        } finally {
            server.stop();
        }
    }

    /** Whole binary messages from the JDK client, which may deliver one in parts. */
    private static final class BinaryCollector implements WebSocket.Listener {
        private final LinkedBlockingQueue<byte[]> messages;
        private ByteBuffer parts = ByteBuffer.allocate(0);

        BinaryCollector(LinkedBlockingQueue<byte[]> messages) {
            this.messages = messages;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            ByteBuffer joined = ByteBuffer.allocate(parts.remaining() + data.remaining());
            parts = joined.put(parts).put(data).flip();
            if (last) {
                messages.add(parts.array());
                parts = ByteBuffer.allocate(0);
            }
            ws.request(1);
            return null;
        }
    }
}
