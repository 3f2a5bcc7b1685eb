package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.testing.RestartableServer;

/** Keepalive pings: answered ones keep a connection, a missing pong drops it as dead (and a reconnecting client comes back). */
@Tag("serial")      // pongs within 250 ms: run alone, not beside another test JVM
@Timeout(60)
class ClientKeepaliveTest {

    private static ClientConfig pinging() {
        return new ClientConfig().pingIntervalMillis(50).pongTimeoutMillis(250);
    }

    @Test
    void answeredPingsKeepAnIdleConnectionOpen() throws Exception {
        try (RestartableServer server = new RestartableServer(new ServerConfig()).start()) {
            RecordingClientListener heard = new RecordingClientListener();
            WebSocketConnection c = WebSocketClient.connect(URI.create(server.url()), heard, pinging());
            Thread.sleep(1000);
            assertTrue(c.isOpen());
            assertTrue(heard.pongs.size() >= 5, "pings went out every 50 ms and were answered: " + heard.pongs.size());
            c.close(1000, "");
            assertEquals(1000, heard.awaitClose());
        }
    }

    @Test
    void aPongThatNeverComesDropsTheConnectionAsDead() throws Exception {
        try (RestartableServer server = new RestartableServer(new ServerConfig()).start()) {
            RecordingClientListener heard = new RecordingClientListener();
            WebSocketClient.connect(URI.create(server.url()), heard, pinging());
            server.opened.get(0).suspendReading();     // the server reads nothing more, so it answers no ping
            long t0 = System.nanoTime();
            assertEquals(1006, heard.awaitClose());
            long millis = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("no pong within 250 ms", heard.closeReason);
            // the unanswered ping may have gone out up to one interval (50 ms) before t0
            assertTrue(millis >= 150 && millis < 5_000, "dropped after " + millis + " ms");
        }
    }

    @Test
    void aReconnectingClientComesBackAfterItsPongsStop() throws Exception {
        try (RestartableServer server = new RestartableServer(new ServerConfig()).start()) {
            ReconnectEvents heard = new ReconnectEvents();
            ReconnectingClient client = ReconnectingClient.connect(URI.create(server.url()), heard, pinging(),
                    new ReconnectPolicy().initialDelayMillis(20).maxDelayMillis(40));
            assertEquals("open", heard.next(5));
            server.opened.get(0).suspendReading();
            assertTrue(heard.next(10).startsWith("reconnecting 1 "));
            assertEquals("reopened", heard.nextBesidesReconnecting(10));
            assertEquals(2, server.opened.size());
            assertTrue(client.sendText("alive again"));
            assertEquals("1:alive again", server.next());
            client.close(1000, "");
        }
    }

    @Test
    void suspendedReadingLongerThanThePongTimeoutWithALiveServerReconnectsNeverAndLosesNothing() throws Exception {
        // A suspension (application back-pressure, a busy WL kernel) used to read as a dead server:
        // 4 s of it gave 2 reconnects and lost 338 of 643 messages.
        try (RestartableServer server = new RestartableServer(new ServerConfig()).start()) {
            ReconnectEvents heard = new ReconnectEvents();
            ReconnectingClient client = ReconnectingClient.connect(URI.create(server.url()), heard, pinging(),
                    new ReconnectPolicy().initialDelayMillis(20).maxDelayMillis(40));
            assertEquals("open", heard.next(5));
            WebSocketConnection serverSide = server.opened.get(0);
            int sent = 0;
            for (int i = 0; i < 10; i++) {
                serverSide.sendText("m" + sent++);
            }
            client.suspendReading();
            long until = System.nanoTime() + 2_000_000_000L;     // eight pong timeouts
            while (System.nanoTime() < until) {
                serverSide.sendText("m" + sent++);
                Thread.sleep(5);
            }
            client.resumeReading();
            for (int i = 0; i < 10; i++) {
                serverSide.sendText("m" + sent++);
                Thread.sleep(50);
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (heard.texts.size() < sent && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(1, server.opened.size(), "no reconnect: the server was alive throughout; events " + heard.events);
            assertTrue(heard.events.stream().noneMatch(e -> e.startsWith("reconnecting") || e.startsWith("close")), "events " + heard.events);
            java.util.List<String> texts = new java.util.ArrayList<>(heard.texts);
            assertEquals(sent, texts.size(), "every message arrived");
            for (int i = 0; i < sent; i++) {
                assertEquals("m" + i, texts.get(i));
            }
            client.close(1000, "");
        }
    }

    @Test
    void aServerThatGoesSilentWhileReadingWasSuspendedIsStillFoundDead() throws Exception {
        try (RestartableServer server = new RestartableServer(new ServerConfig()).start()) {
            RecordingClientListener heard = new RecordingClientListener();
            ClientConnection c = (ClientConnection) WebSocketClient.connect(URI.create(server.url()), heard, pinging());
            WebSocketConnection serverSide = server.opened.get(0);
            c.suspendReading();
            // A reader already waiting at the socket still reads the next bytes, so silence there is
            // judged; only bytes that arrive after the suspension take the reader off the socket.
            long sent = System.nanoTime();
            serverSide.sendText("wake");
            long deadline = sent + 5_000_000_000L;
            while ((c.bytesArrivedNanos() - sent <= 0 || c.awaitingBytes()) && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertFalse(c.awaitingBytes(), "the reader left the socket");
            serverSide.suspendReading();     // answers no ping from now on
            Thread.sleep(600);
            assertTrue(c.isOpen(), "not judged while not reading");
            c.resumeReading();
            assertEquals(1006, heard.awaitClose());
            assertEquals("no pong within 250 ms", heard.closeReason);
        }
    }
}
