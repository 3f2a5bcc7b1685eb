package wsjava.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.server.ServerConfig;
import wsjava.testing.RestartableServer;

/** WSJavaConnect's "Reconnect" and keepalive options through the facade, with the events WL reads. */
@Tag("serial")      // pongs within 250 ms, a stop within 2 s: run alone, not beside another test JVM
@Timeout(60)
class LinkReconnectTest {

    /** Events (each {@link EventQueue#FIELDS} strings) until one of {@code type} arrives; fails after 20 s. */
    private static List<String[]> until(long handle, String type) throws InterruptedException {
        List<String[]> seen = new ArrayList<>();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            String[] flat = WSJavaLink.poll(handle, 100, 100);
            for (int i = 0; i < flat.length; i += EventQueue.FIELDS) {
                String[] e = Arrays.copyOfRange(flat, i, i + EventQueue.FIELDS);
                seen.add(e);
                if (e[0].equals(type)) {
                    return seen;
                }
            }
        }
        throw new AssertionError("no " + type + " event within 20 s; saw " + seen.stream().map(e -> e[0]).toList());
    }

    @Test
    void aReconnectingClientKeepsItsIdAndReportsEachState() throws Exception {
        try (RestartableServer feed = new RestartableServer(new ServerConfig()).start()) {
            long handle = WSJavaLink.connect(feed.url(), new String[] {"reconnect-max-delay", "reconnect", "reconnect-initial-delay", "open-text"},
                    new String[] {"160", "on", "40", "subscribe series/1"});
            try {
                long id = WSJavaLink.clientConnection(handle);
                assertEquals("Open", until(handle, "Open").get(0)[0]);
                assertEquals("1:subscribe series/1", feed.next());

                feed.stop();
                String[] reconnecting = until(handle, "Reconnecting").stream().filter(e -> e[0].equals("Reconnecting")).findFirst().orElseThrow();
                assertEquals(Long.toString(id), reconnecting[1]);
                assertEquals("1", reconnecting[3], "the code field holds the attempt number");
                long delay = Long.parseLong(reconnecting[4]);
                assertTrue(delay >= 20 && delay <= 40, "data holds the delay in milliseconds: " + reconnecting[4]);
                assertEquals(-1, WSJavaLink.sendText(handle, id, "while down"), "sends are refused while reconnecting");
                assertFalse(WSJavaLink.isOpen(handle, id));
                assertTrue(WSJavaLink.isRunning(handle), "still running while reconnecting");

                feed.start();
                List<String[]> toReopen = until(handle, "Reopened");
                String[] reopened = toReopen.get(toReopen.size() - 1);
                assertEquals(Long.toString(id), reopened[1], "the same connection id");
                assertEquals(List.of("/", "", "127.0.0.1:" + feed.port(), "", ""), Arrays.asList(reopened).subList(5, 10));
                assertEquals(Long.toString(id), Long.toString(WSJavaLink.clientConnection(handle)));
                assertEquals("2:subscribe series/1", feed.next(), "open-text is sent again, first");
                assertEquals(5, WSJavaLink.sendText(handle, id, "after"));
                assertEquals("2:after", feed.next());

                assertTrue(WSJavaLink.stopServer(handle));
                assertEquals("1000", until(handle, "Close").stream().filter(e -> e[0].equals("Close")).findFirst().orElseThrow()[3]);
                assertFalse(WSJavaLink.isRunning(handle));
            } finally {
                WSJavaLink.forgetServer(handle);
            }
        }
    }

    @Test
    void itGivesUpAfterItsAttemptsAndStopsAtOnceWhileReconnecting() throws Exception {
        RestartableServer feed = new RestartableServer(new ServerConfig()).start();
        long handle = WSJavaLink.connect(feed.url(), new String[] {"reconnect", "reconnect-initial-delay", "reconnect-attempts"},
                new String[] {"on", "30", "2"});
        long slow = WSJavaLink.connect(feed.url(), new String[] {"reconnect", "reconnect-initial-delay"}, new String[] {"on", "60000"});
        try {
            feed.stop();
            List<String> types = until(handle, "Close").stream().map(e -> e[0]).toList();
            assertEquals(List.of("Open", "Reconnecting", "Reconnecting", "GaveUp", "Close"), types);
            assertFalse(WSJavaLink.isRunning(handle));

            until(slow, "Reconnecting");
            long t0 = System.nanoTime();
            WSJavaLink.stopServer(slow);
            assertTrue(System.nanoTime() - t0 < 2_000_000_000L, "a stop while reconnecting does not wait for the next attempt");
            assertEquals("Close", until(slow, "Close").get(0)[0]);
        } finally {
            WSJavaLink.forgetServer(handle);
            WSJavaLink.forgetServer(slow);
        }
    }

    @Test
    void keepaliveDropsAConnectionWhosePongsStop() throws Exception {
        try (RestartableServer feed = new RestartableServer(new ServerConfig()).start()) {
            long handle = WSJavaLink.connect(feed.url(), new String[] {"ping-interval", "pong-timeout"}, new String[] {"50", "250"});
            try {
                until(handle, "Open");
                feed.opened.get(0).suspendReading();
                List<String[]> events = until(handle, "Close");
                String[] close = events.get(events.size() - 1);
                assertEquals(List.of("1006", "no pong within 250 ms"), List.of(close[3], close[4]));
            } finally {
                WSJavaLink.forgetServer(handle);
            }
        }
    }

    @Test
    void badReconnectOptionsSayWhatIsWrong() throws Exception {
        try (RestartableServer feed = new RestartableServer(new ServerConfig()).start()) {
            assertEquals("reconnect needs on or off, got maybe", assertThrows(IllegalArgumentException.class,
                    () -> WSJavaLink.connect(feed.url(), new String[] {"reconnect"}, new String[] {"maybe"})).getMessage());
            assertEquals("reconnect-attempts needs a whole number, got many", assertThrows(IllegalArgumentException.class,
                    () -> WSJavaLink.connect(feed.url(), new String[] {"reconnect-attempts"}, new String[] {"many"})).getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> WSJavaLink.connect(feed.url(), new String[] {"reconnect", "reconnect-max-delay", "reconnect-initial-delay"},
                            new String[] {"on", "10", "100"}), "a maximum below the first delay");
        }
    }
}
