package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.server.ServerConfig;
import wsjava.testing.RestartableServer;

/** The client that stays connected, against a real WSJava server that the test stops and starts again on the same port. */
@Timeout(90)
class ReconnectingClientTest {

    private static ReconnectPolicy quick() {
        return new ReconnectPolicy().initialDelayMillis(40).maxDelayMillis(160);
    }

    @Test
    void reconnectsAfterARestartOnTheSamePortAndLosesNothingSentAfterTheReopen() throws Exception {
        try (RestartableServer feed = new RestartableServer(new ServerConfig()).start()) {
            ReconnectEvents heard = new ReconnectEvents();
            ReconnectingClient client = ReconnectingClient.connect(URI.create(feed.url()), heard, new ClientConfig(),
                    quick().onEveryOpen(c -> c.sendText("subscribe prices")));
            long id = client.id();
            assertEquals("open", heard.next(5));
            assertEquals("1:subscribe prices", feed.next(), "the open hook ran on the first open");
            for (int i = 0; i < 100; i++) {
                assertTrue(client.sendText("before " + i));
            }
            for (int i = 0; i < 100; i++) {
                assertEquals("1:before " + i, feed.next());
            }

            feed.stop();
            String first = heard.next(10);
            assertTrue(first.matches("reconnecting 1 (2\\d|3\\d|40)"), "the first delay is 20-40 ms: " + first);
            assertTrue(heard.next(10).startsWith("reconnecting 2 "), "the restarted port is still closed: another attempt");
            assertTrue(client.isReconnecting());
            assertFalse(client.isOpen());
            assertFalse(client.sendText("while down"), "sends while disconnected are refused");
            ExecutionException refused = assertThrows(ExecutionException.class, () -> client.sendTextAsync("x").get(5, TimeUnit.SECONDS));
            assertTrue(refused.getCause() instanceof java.io.IOException);

            feed.start();
            assertEquals("reopened", heard.nextBesidesReconnecting(20));
            assertEquals("2:subscribe prices", feed.next(), "the hook ran again, before anything else");
            assertEquals(id, client.id(), "the same id across the reopen");
            for (int i = 0; i < 1000; i++) {
                assertTrue(client.sendText("after " + i), "send " + i + " after the reopen");
            }
            for (int i = 0; i < 1000; i++) {
                assertEquals("2:after " + i, feed.next(), "nothing sent after the reopen is lost or reordered");
            }
            assertNull(feed.received.poll(), "and 'while down' never arrived");

            client.close(1000, "done");
            assertEquals("close 1000 ", heard.nextBesidesReconnecting(10));
            assertTrue(client.hasEnded());
            assertTrue(heard.ids.stream().allMatch(x -> x == id), "every event names the same connection");
            Thread.sleep(300);
            assertNull(heard.events.poll(), "no reconnecting after the application's own close");
        }
    }

    @Test
    void aNormalCloseFromTheServerEndsIt() throws Exception {
        try (RestartableServer feed = new RestartableServer(new ServerConfig()).start()) {
            ReconnectEvents heard = new ReconnectEvents();
            ReconnectingClient client = ReconnectingClient.connect(URI.create(feed.url()), heard, new ClientConfig(), quick());
            assertEquals("open", heard.next(5));
            feed.opened.get(0).close(1000, "bye");
            assertEquals("close 1000 bye", heard.next(10));
            assertTrue(client.hasEnded());
        }
    }

    @Test
    void aCodeThePolicyDoesNotNameEndsIt() throws Exception {
        try (RestartableServer feed = new RestartableServer(new ServerConfig()).start()) {
            ReconnectEvents heard = new ReconnectEvents();
            ReconnectingClient.connect(URI.create(feed.url()), heard, new ClientConfig(), quick().abnormalCodes(Set.of(1006)));
            assertEquals("open", heard.next(5));
            feed.stop();                       // 1001, which this policy does not name
            assertEquals("close 1001 server shutting down", heard.next(10));
        }
    }

    @Test
    void itGivesUpAfterTheAttemptLimitWithBackoffBetweenAttempts() throws Exception {
        RestartableServer feed = new RestartableServer(new ServerConfig()).start();
        ReconnectEvents heard = new ReconnectEvents();
        ReconnectingClient client = ReconnectingClient.connect(URI.create(feed.url()), heard, new ClientConfig(),
                new ReconnectPolicy().initialDelayMillis(40).maxDelayMillis(100).maxAttempts(3));
        assertEquals("open", heard.next(5));
        feed.stop();
        long[][] bounds = {{20, 40}, {40, 80}, {50, 100}};
        for (int attempt = 1; attempt <= 3; attempt++) {
            String[] e = heard.next(10).split(" ");
            assertEquals("reconnecting", e[0]);
            assertEquals(attempt, Integer.parseInt(e[1]));
            long delay = Long.parseLong(e[2]);
            assertTrue(delay >= bounds[attempt - 1][0] && delay <= bounds[attempt - 1][1], "attempt " + attempt + " after " + delay + " ms");
        }
        String gaveUp = heard.next(10);
        assertTrue(gaveUp.startsWith("gave up: gave up after 3 attempts: connect failed"), gaveUp);
        assertTrue(heard.next(10).startsWith("close 1006 gave up after 3 attempts"));
        assertTrue(client.hasEnded());
    }

    @Test
    void closingWhileReconnectingEndsAtOnceAndNeverConnectsAgain() throws Exception {
        try (RestartableServer feed = new RestartableServer(new ServerConfig()).start()) {
            ReconnectEvents heard = new ReconnectEvents();
            ReconnectingClient client = ReconnectingClient.connect(URI.create(feed.url()), heard, new ClientConfig(),
                    new ReconnectPolicy().initialDelayMillis(1500));
            assertEquals("open", heard.next(5));
            feed.stop();
            assertTrue(heard.next(10).startsWith("reconnecting 1 "));
            feed.start();
            client.close(1000, "enough");
            assertEquals("close 1000 enough", heard.next(5));
            Thread.sleep(2000);
            assertEquals(1, feed.opened.size(), "the restarted server saw no attempt");
            assertNull(heard.events.poll());
        }
    }

    @Test
    void aListenerThatThrowsEndsTheClientInsteadOfLoopingOnReconnects() throws Exception {
        try (RestartableServer feed = new RestartableServer(new ServerConfig()).start()) {
            ReconnectEvents heard = new ReconnectEvents() {
                @Override public void onText(wsjava.server.WebSocketConnection c, String text) {
                    throw new IllegalStateException("a bug in the handler");
                }
            };
            ReconnectingClient.connect(URI.create(feed.url()), heard, new ClientConfig(), quick());
            assertEquals("open", heard.next(5));
            feed.opened.get(0).sendText("boom");
            assertTrue(heard.next(10).startsWith("close 1011"), "closed with 1011, and not reconnected");
            Thread.sleep(300);
            assertEquals(1, feed.opened.size());
        }
    }
}
