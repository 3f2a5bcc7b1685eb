package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.PeerDeflate;
import wsjava.testing.RawClient;

/** sendBinaryAsync(ByteBuffer): header plus the caller's bytes in one frame; the copying paths where they must be. */
@Timeout(60)
class BufferSendTest {

    @Test
    void oneFrameGoesOutAsHeaderPlusTheBufferAndTheBufferIsNotMoved() throws Exception {
        RecordingListener listener = new RecordingListener();
        ServerConfig config = new ServerConfig().port(0).outboundFragmentSize(4096).compression(Compression.OFF);
        try (WebSocketServer server = new WebSocketServer(config, listener).start(); RawClient c = RawClient.open(server.port())) {
            while (listener.opened.isEmpty()) {
                Thread.sleep(5);
            }
            WebSocketConnection conn = listener.opened.get(0);
            byte[] bytes = new byte[10_000];
            new Random(1).nextBytes(bytes);
            ByteBuffer slice = ByteBuffer.wrap(bytes, 100, 3000);       // a view into a larger array: only its remaining bytes go
            conn.sendBinaryAsync(slice).get(10, TimeUnit.SECONDS);
            assertEquals(100, slice.position(), "the buffer's position is not moved");
            Frame one = c.readFrame(10_000);
            assertEquals(OpCode.BINARY, one.opcode());
            assertTrue(one.fin());
            assertArrayEquals(java.util.Arrays.copyOfRange(bytes, 100, 3100), one.payload());
            conn.sendBinaryAsync(ByteBuffer.wrap(bytes)).get(10, TimeUnit.SECONDS);      // over the frame size: fragmented
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            Frame f;
            int frames = 0;
            do {
                f = c.readFrame(10_000);
                joined.writeBytes(f.payload());
                frames++;
            } while (!f.fin());
            assertEquals(3, frames);
            assertArrayEquals(bytes, joined.toByteArray());
        }
    }

    @Test
    void aSmallFrameSentFromTheIoThreadLeavesTheCallersBufferAsItWas() throws Exception {
        byte[] bytes = new byte[300];
        new Random(2).nextBytes(bytes);
        CompletableFuture<int[]> after = new CompletableFuture<>();
        WebSocketListener replier = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                ByteBuffer view = ByteBuffer.wrap(bytes, 7, 200).asReadOnlyBuffer();   // not the message's own view: the copying path
                boolean sent = connection.sendBinary(view);
                after.complete(new int[] {sent ? 1 : 0, view.position(), view.limit()});
            }
        };
        ServerConfig config = new ServerConfig().port(0).compression(Compression.OFF);
        try (WebSocketServer server = new WebSocketServer(config, replier).start(); RawClient c = RawClient.open(server.port())) {
            c.send(c.writer.frame(OpCode.TEXT, true, new byte[] {'g', 'o'}, 0, 2));
            Frame one = c.readFrame(10_000);
            assertArrayEquals(Arrays.copyOfRange(bytes, 7, 207), one.payload());
            assertArrayEquals(new int[] {1, 7, 207}, after.get(10, TimeUnit.SECONDS), "sent, position and limit as they were");
        }
    }

    @Test
    void withDeflateAgreedItIsCompressed() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
             RawClient c = RawClient.openOffering(server.port(), "permessage-deflate")) {
            while (listener.opened.isEmpty()) {
                Thread.sleep(5);
            }
            byte[] text = "Graphics[Disk[]] ".repeat(500).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            listener.opened.get(0).sendBinaryAsync(ByteBuffer.wrap(text)).get(10, TimeUnit.SECONDS);
            Frame f = c.readFrame(10_000);
            assertTrue((f.header().rsv() & 4) != 0, "compressed");
            assertArrayEquals(text, new PeerDeflate(false, false).inflate(f.payload()));
        }
    }
}
