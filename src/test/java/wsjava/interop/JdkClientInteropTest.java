package wsjava.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import wsjava.cli.EchoListener;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;

/** The JDK's java.net.http.WebSocket against the echo server. */
class JdkClientInteropTest {

    private static final int[] SIZES = {0, 1, 125, 126, 127, 65535, 65536, 1 << 20, 16 << 20};

    private static WebSocketServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    /** Collects whole messages from the JDK client, which delivers large ones in parts. */
    static final class Collector implements WebSocket.Listener {
        final LinkedBlockingQueue<Object> messages = new LinkedBlockingQueue<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final StringBuilder text = new StringBuilder();
        private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                messages.add(text.toString());
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            byte[] b = new byte[data.remaining()];
            data.get(b);
            binary.writeBytes(b);
            if (last) {
                messages.add(binary.toByteArray());
                binary.reset();
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }
    }

    private static WebSocket connect(Collector c) throws Exception {
        return HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create(server.url()), c).get(10, TimeUnit.SECONDS);
    }

    @Test
    void textAndBinaryFrom0BytesTo16MiB() throws Exception {
        Collector c = new Collector();
        WebSocket ws = connect(c);
        Random random = new Random(1);
        for (int size : SIZES) {
            String text = "ü".repeat(size / 2) + "x".repeat(size % 2);
            ws.sendText(text, true).get(30, TimeUnit.SECONDS);
            assertEquals(text, c.messages.poll(30, TimeUnit.SECONDS), "text of " + size + " bytes");
            byte[] data = new byte[size];
            random.nextBytes(data);
            ws.sendBinary(ByteBuffer.wrap(data), true).get(30, TimeUnit.SECONDS);
            assertArrayEquals(data, (byte[]) c.messages.poll(30, TimeUnit.SECONDS), "binary of " + size + " bytes");
        }
        ws.sendClose(1000, "done").get(10, TimeUnit.SECONDS);
        assertEquals(1000, c.closed.get(10, TimeUnit.SECONDS));
    }

    @Test
    void fragmentedMessagesArriveWhole() throws Exception {
        Collector c = new Collector();
        WebSocket ws = connect(c);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            String part = "part " + i + " ✓ ";
            expected.append(part);
            ws.sendText(part, i == 9).get(10, TimeUnit.SECONDS);
        }
        assertEquals(expected.toString(), c.messages.poll(10, TimeUnit.SECONDS));
        byte[] big = new byte[3 << 20];
        new Random(2).nextBytes(big);
        for (int at = 0; at < big.length; at += 1 << 20) {
            ws.sendBinary(ByteBuffer.wrap(big, at, 1 << 20), at + (1 << 20) == big.length).get(10, TimeUnit.SECONDS);
        }
        assertArrayEquals(big, (byte[]) c.messages.poll(30, TimeUnit.SECONDS));
        ws.sendClose(1000, "").get(10, TimeUnit.SECONDS);
        assertEquals(1000, c.closed.get(10, TimeUnit.SECONDS));
    }

    @Test
    void closeReasonTravelsBothWays() throws Exception {
        Collector c = new Collector();
        WebSocket ws = connect(c);
        ws.sendText("héllo", true).get(5, TimeUnit.SECONDS);
        assertEquals("héllo", c.messages.poll(5, TimeUnit.SECONDS));
        ws.sendClose(4000, "application close").get(5, TimeUnit.SECONDS);
        assertEquals(4000, c.closed.get(10, TimeUnit.SECONDS));
        assertEquals("héllo".getBytes(StandardCharsets.UTF_8).length, 6);
    }
}
