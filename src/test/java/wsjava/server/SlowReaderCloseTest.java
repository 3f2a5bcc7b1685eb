package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.testing.TestTls;

/**
 * A peer that reads slowly, but reads, gets every reply sent before the close: the kernel reports
 * the socket writable again only once a third of its buffer is free, which a slow reader takes
 * longer than the close timeout to free, so the server also writes what fits on its timer.
 */
@Tag("serial")      // a reader's pace against a 300 ms close timeout: run alone, not beside another test JVM
@Timeout(60)
class SlowReaderCloseTest {

    private static final int REPLIES = 16;
    private static final int REPLY_BYTES = 256 * 1024;      // 4 MiB in all: past what the socket buffers hold
    private static final int FRAME_BYTES = 10 + REPLY_BYTES;

    @Test
    void aSlowReaderGetsEveryReplyBeforeTheCloseFrame() throws Exception {
        slowReaderGetsEveryReply(null, new Socket(), REPLIES, 25, 0, 300);
    }

    /**
     * Over TLS the last records can wait in the transport, not in the queue, while the peer reads
     * them: that is progress too, or the close timeout cuts a peer still reading what it was sent.
     */
    @Test
    void aSlowReaderOverTlsGetsEveryReplyBeforeTheCloseFrame() throws Exception {
        TestTls tls = TestTls.get();
        // A small send buffer, fixed (as on a slow link), keeps records waiting in the transport at the end; autotuned, it grows to 4 MiB.
        // A read every 150 ms, a third of the 450 ms close timeout; the records a write leaves in the transport take
        // such a reader longer than that. Before they counted as progress, this lost the rest (2 of 2 runs, and at 100/300 ms).
        slowReaderGetsEveryReply(tls.server, tls.client.getSocketFactory().createSocket(), 2, 150, 16 * 1024, 450);
    }

    private void slowReaderGetsEveryReply(javax.net.ssl.SSLContext serverTls, Socket unconnected, int replies, long pauseMillis,
                                          int serverSendBuffer, int closeTimeoutMillis) throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        WebSocketListener replier = new WebSocketListener() {
            @Override
            public void onOpen(WebSocketConnection connection) {
                if (serverSendBuffer > 0) {
                    setSendBuffer(connection, serverSendBuffer);
                }
            }

            @Override
            public void onText(WebSocketConnection connection, String text) {
                for (int i = 0; i < replies; i++) {
                    accepted.addAndGet(connection.sendBinary(new byte[REPLY_BYTES]) ? 1 : 0);
                }
                connection.close(1000, "replied");
            }
        };
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).closeTimeoutMillis(closeTimeoutMillis).tls(serverTls), replier).start();
             Socket socket = unconnected) {
            socket.setReceiveBufferSize(32 * 1024);
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = socket.getInputStream();
            skipHead(in);
            socket.getOutputStream().write(new byte[] {(byte) 0x81, (byte) 0x82, 0, 0, 0, 0, 'g', 'o'});     // "go", masked with zeros
            byte[] all = readSlowly(in, pauseMillis);
            assertEquals(replies, accepted.get());
            int at = 0;
            int got = 0;
            while (at + FRAME_BYTES <= all.length && (all[at] & 0xFF) == 0x82) {
                got++;
                at += FRAME_BYTES;
            }
            assertEquals(replies, got, "replies before the close frame, of " + all.length + " bytes read");
            assertTrue(at + 4 <= all.length && (all[at] & 0xFF) == 0x88 && ((all[at + 2] & 0xFF) << 8 | (all[at + 3] & 0xFF)) == 1000,
                    "the close frame follows them");
        }
    }

    /** The server side's socket send buffer, fixed at {@code bytes} (found by reflection: no API sets it, on purpose). */
    private static void setSendBuffer(WebSocketConnection handle, int bytes) {
        try {
            java.lang.reflect.Field connection = ConnectionHandle.class.getDeclaredField("connection");
            connection.setAccessible(true);
            ((ServerConnection) connection.get(handle)).socket.sendBuffer(bytes);
        } catch (ReflectiveOperationException | java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void skipHead(InputStream in) throws Exception {
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            assertTrue(b >= 0, "closed during the handshake");
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
    }

    /** Reads to the end, 32 KiB at a time with a pause after each (25 ms: about 1.3 MB/s). */
    private static byte[] readSlowly(InputStream in, long pauseMillis) throws Exception {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] chunk = new byte[32 * 1024];
        int n;
        while ((n = in.read(chunk)) > 0) {
            all.write(chunk, 0, n);
            Thread.sleep(pauseMillis);
        }
        return all.toByteArray();
    }
}
