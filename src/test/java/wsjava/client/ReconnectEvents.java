package wsjava.client;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import wsjava.server.WebSocketConnection;

/** Records a reconnecting client's events as short strings, in order, for tests to read. */
class ReconnectEvents implements ReconnectListener {

    final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    final BlockingQueue<String> texts = new LinkedBlockingQueue<>();
    final BlockingQueue<Long> ids = new LinkedBlockingQueue<>();

    @Override public void onOpen(WebSocketConnection c) { ids.add(c.id()); events.add("open"); }
    @Override public void onText(WebSocketConnection c, String text) { texts.add(text); }
    @Override public void onReconnecting(WebSocketConnection c, int attempt, long delayMillis) { ids.add(c.id()); events.add("reconnecting " + attempt + " " + delayMillis); }
    @Override public void onReopened(WebSocketConnection c) { ids.add(c.id()); events.add("reopened"); }
    @Override public void onGaveUp(WebSocketConnection c, String reason) { events.add("gave up: " + reason); }
    @Override public void onClose(WebSocketConnection c, int code, String reason) { events.add("close " + code + " " + reason); }

    /** The next event, or an AssertionError after {@code seconds}. */
    String next(int seconds) throws InterruptedException {
        String e = events.poll(seconds, TimeUnit.SECONDS);
        if (e == null) {
            throw new AssertionError("no event within " + seconds + " s");
        }
        return e;
    }

    /** Skips "reconnecting" events until another comes; returns it. */
    String nextBesidesReconnecting(int seconds) throws InterruptedException {
        String e = next(seconds);
        while (e.startsWith("reconnecting")) {
            e = next(seconds);
        }
        return e;
    }
}
