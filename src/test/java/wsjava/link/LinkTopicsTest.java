package wsjava.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;
import wsjava.testing.RawClient;

/** WSJavaSubscribe, WSJavaUnsubscribe, conn["Topics"] and WSJavaPublish's Java half, exactly as WL calls it. */
@Timeout(60)
class LinkTopicsTest {

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private static List<Long> openedIds(long handle, int count) throws InterruptedException {
        List<Long> ids = new ArrayList<>();
        long deadline = System.currentTimeMillis() + 10_000;
        while (ids.size() < count && System.currentTimeMillis() < deadline) {
            String[] flat = WSJavaLink.poll(handle, 200, 100);
            for (int i = 0; i < flat.length; i += EventQueue.FIELDS) {
                if (flat[i].equals("Open")) {
                    ids.add(Long.parseLong(flat[i + 1]));
                }
            }
        }
        return ids;
    }

    @Test
    void subscribePublishAndTopicsThroughTheFacade() throws Exception {
        long handle = WSJavaLink.startServer(new String[] {"port", "max-topics"}, new String[] {"0", "2"});
        int port = WSJavaLink.serverPort(handle);
        try (RawClient a = RawClient.open(port); RawClient b = RawClient.open(port)) {
            List<Long> ids = openedIds(handle, 2);
            long ca = ids.get(0);
            long cb = ids.get(1);
            assertTrue(WSJavaLink.subscribe(handle, ca, "series/1"));
            assertTrue(WSJavaLink.subscribe(handle, ca, "series/0"));
            assertFalse(WSJavaLink.subscribe(handle, ca, "series/2"), "max-topics 2");
            assertTrue(WSJavaLink.subscribe(handle, cb, "series/1"));
            assertArrayEquals(new String[] {"series/0", "series/1"}, WSJavaLink.topics(handle, ca), "sorted");

            assertEquals(2, WSJavaLink.publishText(handle, "series/1", "{1, 2, 3}"));
            assertEquals("{1, 2, 3}", new String(a.readFrame(5000).payload(), StandardCharsets.UTF_8));
            assertEquals("{1, 2, 3}", new String(b.readFrame(5000).payload(), StandardCharsets.UTF_8));
            assertEquals(1, WSJavaLink.publishBinaryBase64(handle, "series/0", b64(new byte[] {0, (byte) 200})));
            Frame binary = a.readFrame(5000);
            assertEquals(OpCode.BINARY, binary.opcode());
            assertArrayEquals(new byte[] {0, (byte) 200}, binary.payload());
            byte[] emoji = "x\uD83D\uDE00".getBytes(StandardCharsets.UTF_8);
            assertEquals(1, WSJavaLink.publishUtf8Base64(handle, "series/0", b64(emoji)));
            Frame text = a.readFrame(5000);
            assertEquals(OpCode.TEXT, text.opcode());
            assertArrayEquals(emoji, text.payload(), "the exact UTF-8 bytes");
            assertEquals(-1, WSJavaLink.publishUtf8Base64(handle, "series/0", b64(new byte[] {(byte) 0xC0, (byte) 0x80})), "not UTF-8");
            assertThrows(SocketTimeoutException.class, () -> b.readFrame(200), "b is not subscribed to series/0");

            assertTrue(WSJavaLink.unsubscribe(handle, ca, "series/1"));
            assertFalse(WSJavaLink.unsubscribe(handle, ca, "series/1"));
            assertEquals(1, WSJavaLink.publishText(handle, "series/1", "only b"));
            assertEquals(0, WSJavaLink.publishText(handle, "nobody", "x"));
            assertFalse(WSJavaLink.subscribe(handle, ca + cb + 1000, "t"), "no such connection");
            assertArrayEquals(new String[0], WSJavaLink.topics(handle, ca + cb + 1000));
            assertThrows(IllegalArgumentException.class, () -> WSJavaLink.subscribe(handle, ca, ""), "a topic has 1 to 256 characters");
        } finally {
            WSJavaLink.stopServer(handle);
            WSJavaLink.forgetServer(handle);
        }
    }

    @Test
    void aClientHandleHasNoTopics() throws Exception {
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start()) {
            long client = WSJavaLink.connect("ws://127.0.0.1:" + server.port() + "/", new String[0], new String[0]);
            try {
                long id = WSJavaLink.clientConnection(client);
                assertThrows(IllegalArgumentException.class, () -> WSJavaLink.subscribe(client, id, "t"));
                assertThrows(IllegalArgumentException.class, () -> WSJavaLink.publishText(client, "t", "x"));
            } finally {
                WSJavaLink.forgetServer(client);
            }
        }
    }
}
