package wsjava.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import wsjava.bench.peers.NettyTransport;

/**
 * The bare Java floors of the echo bench echo correctly, so their cost is the cost of a correct
 * echo: the JDK's own WebSocket client sends text and binary messages of every length encoding and
 * its edges (0, 125, 126, 65,535, 65,536 bytes, and 300,000, more than one read), a ping, and a
 * close, and gets each back byte for byte. FfmFloor and UringFloor need a JDK 22 or later, and
 * UringFloor a kernel that allows io_uring; without them their tests are skipped with the reason.
 */
@Timeout(120)
class BareFloorEchoTest {

    private static final int[] SIZES = {0, 1, 125, 126, 1000, 65535, 65536, 300_000};

    @TempDir
    Path dir;
    private final Random random = new Random(7);

    @Test
    void nioFloorEchoesTextBinaryPingAndClose() throws Exception {
        echoesEverything(EchoBench.peer(EchoPeers.NIO_FLOOR, "wsjava.bench.NioFloor", List.of()));
    }

    @Test
    void ffmFloorEchoesTextBinaryPingAndClose() throws Exception {
        if (FfmFloorPeer.jdk() == null) {
            System.out.println("FfmFloor's echo test skipped: " + FfmFloorPeer.whyNot());
            Assumptions.abort(FfmFloorPeer.whyNot());
        }
        echoesEverything(FfmFloorPeer.build(dir.resolve("native"), FfmFloorPeer.NAME));
    }

    @Test
    void uringFloorEchoesTextBinaryPingAndClose() throws Exception {
        if (FfmFloorPeer.jdk() == null) {
            System.out.println("UringFloor's echo test skipped: " + FfmFloorPeer.whyNot());
            Assumptions.abort(FfmFloorPeer.whyNot());
        }
        String refused = NettyTransport.ioUringUnavailable();
        if (refused != null) {
            System.out.println("UringFloor's echo test skipped: io_uring is not available here: " + refused);
            Assumptions.abort(refused);
        }
        echoesEverything(FfmFloorPeer.build(dir.resolve("native"), FfmFloorPeer.URING));
    }

    private void echoesEverything(EchoBench.Peer peer) throws Exception {
        int port = EchoBench.freePort();
        Process server = EchoBench.start(peer, port, false, dir);
        try {
            Echoes echoes = new Echoes();
            WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + port + "/"), echoes).get(10, TimeUnit.SECONDS);
            for (int size : SIZES) {
                byte[] bytes = new byte[size];
                random.nextBytes(bytes);
                ws.sendBinary(ByteBuffer.wrap(bytes), true).get(10, TimeUnit.SECONDS);
                assertArrayEquals(bytes, (byte[]) echoes.next(), peer.name + ": binary of " + size + " bytes");

                String text = text(size);
                ws.sendText(text, true).get(10, TimeUnit.SECONDS);
                assertEquals(text, echoes.next(), peer.name + ": text of " + size + " bytes");
            }
            byte[] ping = {1, 2, 3, 4, 5};
            ws.sendPing(ByteBuffer.wrap(ping)).get(10, TimeUnit.SECONDS);
            assertArrayEquals(ping, (byte[]) echoes.next(), peer.name + ": the pong to a ping");
            ws.sendClose(4000, "bye").get(10, TimeUnit.SECONDS);
            assertEquals("4000 bye", echoes.next(), peer.name + ": the close echoed");
        } finally {
            EchoBench.stop(server);
        }
    }

    /** {@code size} UTF-8 bytes of text, with two- and three-byte characters in it. */
    private String text(int size) {
        StringBuilder s = new StringBuilder();
        int bytes = 0;
        while (bytes < size) {
            int kind = random.nextInt(3);
            if (kind == 2 && bytes + 3 <= size) {
                s.append('\u20AC');
                bytes += 3;
            } else if (kind == 1 && bytes + 2 <= size) {
                s.append('\u00E9');
                bytes += 2;
            } else {
                s.append((char) ('a' + random.nextInt(26)));
                bytes++;
            }
        }
        return s.toString();
    }

    /** The client's side: each whole message (a String, bytes, a pong's bytes, or "code reason" of a close), one at a time. */
    private static final class Echoes implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();
        private final ByteArrayOutputStream binary = new ByteArrayOutputStream();
        private CompletableFuture<Object> message = new CompletableFuture<>();

        Object next() throws Exception {
            Object m = message.get(30, TimeUnit.SECONDS);
            message = new CompletableFuture<>();
            return m;
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                message.complete(text.toString());
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            byte[] part = new byte[data.remaining()];
            data.get(part);
            binary.writeBytes(part);
            if (last) {
                message.complete(binary.toByteArray());
                binary.reset();
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPong(WebSocket ws, ByteBuffer data) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            message.complete(bytes);
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
            message.complete(code + " " + reason);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            message.completeExceptionally(error);
        }
    }
}
