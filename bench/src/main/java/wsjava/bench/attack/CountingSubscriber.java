package wsjava.bench.attack;

import java.io.IOException;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import wsjava.cli.ServeListener;
import wsjava.client.ClientConfig;
import wsjava.client.WebSocketClient;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/**
 * A client of the attacked server subscribed to a topic ({@link ServeListener}'s {@code /topics/NAME}):
 * it counts what it hears, keeps the largest size, and keeps short texts so that the attack can
 * wait for a marker it published.
 */
final class CountingSubscriber implements AutoCloseable {

    private static final int KEPT_TEXT_CHARS = 64;

    private final WebSocketConnection connection;
    private final AtomicLong messages = new AtomicLong();
    private final AtomicLong largest = new AtomicLong();
    private final Set<String> texts = ConcurrentHashMap.newKeySet();
    private volatile boolean closedByServer;

    CountingSubscriber(int port, String topic) throws IOException {
        connection = WebSocketClient.connect(URI.create("ws://127.0.0.1:" + port + ServeListener.TOPICS + topic), new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection c, String text) {
                heard(text.length());
                if (text.length() <= KEPT_TEXT_CHARS) {
                    texts.add(text);
                }
            }

            @Override
            public void onBinary(WebSocketConnection c, byte[] data) {
                heard(data.length);
            }

            @Override
            public void onClose(WebSocketConnection c, int code, String reason) {
                closedByServer = true;
            }
        }, new ClientConfig());
    }

    private void heard(long size) {
        messages.incrementAndGet();
        largest.accumulateAndGet(size, Math::max);
    }

    /** Sends a text on its topic (the server publishes it, so it goes through Redis too). */
    void publish(String text) {
        connection.sendText(text);
    }

    /** Waits for {@code text} to be heard, at most {@code millis}; whether it was. */
    boolean awaitText(String text, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!texts.contains(text) && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
        return texts.contains(text);
    }

    /** Waits until {@code count} messages are heard in all, at most {@code millis}. */
    void awaitMessages(long count, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (messages.get() < count && System.currentTimeMillis() < deadline && !closedByServer) {
            Thread.sleep(5);
        }
    }

    boolean heardText(String text) {
        return texts.contains(text);
    }

    long messages() {
        return messages.get();
    }

    long largest() {
        return largest.get();
    }

    boolean closedByServer() {
        return closedByServer;
    }

    @Override
    public void close() {
        connection.close(1000, "");
    }
}
