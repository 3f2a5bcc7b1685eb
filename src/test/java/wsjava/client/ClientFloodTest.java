package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.OpCode;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketServer;
import wsjava.testing.RawServer;

/**
 * Issue 20, item 6: a hostile server that floods pings and reads nothing used to grow the client's
 * outbox without bound (OOM in 3 s after 13 MB of pings; in WL, the J/Link JVM). One pong waits at
 * a time; the outbox is bounded, and a send past its limit fails the connection with 1008. Also
 * item 12: {@code queuedBytes()} went negative after a close.
 */
@Timeout(120)
class ClientFloodTest {

    @Test
    void aPingFloodFromAServerThatNeverReadsQueuesOnePong() throws Exception {
        try (RawServer server = new RawServer(RawServer::goodResponse)) {
            WebSocketConnection c = WebSocketClient.connect(URI.create("ws://127.0.0.1:" + server.port() + "/"),
                    new RecordingClientListener(), new ClientConfig().compression(false));
            byte[] ping = server.writer.control(OpCode.PING, new byte[0]);
            byte[] block = new byte[ping.length * 100_000];
            for (int i = 0; i < 100_000; i++) {
                System.arraycopy(ping, 0, block, i * ping.length, ping.length);
            }
            for (int i = 0; i < 20; i++) {       // 2,000,000 pings, 4 MB
                server.send(block);
            }
            Thread.sleep(2_000);
            assertTrue(c.queuedBytes() <= 17 * 131, c.queuedBytes() + " bytes of pongs queued: a few may wait, not one per ping");
        }
    }

    @Test
    void sendsToAServerThatNeverReadsFailTheConnectionWith1008PastTheLimit() throws Exception {
        try (RawServer server = new RawServer(RawServer::goodResponse)) {
            RecordingClientListener listener = new RecordingClientListener();
            WebSocketConnection c = WebSocketClient.connect(URI.create("ws://127.0.0.1:" + server.port() + "/"), listener,
                    new ClientConfig().compression(false));
            byte[] message = new byte[1 << 20];
            int accepted = 0;
            for (int i = 0; i < 100 && c.sendBinary(message); i++) {
                accepted++;
            }
            assertTrue(accepted < 100, "100 MiB queued for a server that reads nothing");
            assertEquals(1008, listener.closeCode.get(10, TimeUnit.SECONDS)[0]);
            assertFalse(c.isOpen());
        }
    }

    @Test
    void queuedBytesIsNeverNegativeAfterAClose() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        try {
            RecordingClientListener listener = new RecordingClientListener();
            WebSocketConnection c = WebSocketClient.connect(URI.create("ws://127.0.0.1:" + server.port() + "/"), listener, new ClientConfig());
            c.close();
            listener.closeCode.get(10, TimeUnit.SECONDS);
            Thread.sleep(200);
            assertEquals(0, c.queuedBytes(), "the close frame is counted in and out");
        } finally {
            server.stop();
        }
    }
}
