package wsjava.bench.soak;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A well-behaved client on the JDK's own WebSocket: sends sequence-numbered text messages of
 * random size with a few in flight, and checks that the echoes come back each exactly once, in
 * order. Anything else is counted as lost, duplicated or reordered.
 */
final class SequencedClient implements WebSocket.Listener {

    private static final int IN_FLIGHT = 4;

    private final int id;
    private final Random random;
    private final StringBuilder partial = new StringBuilder();
    private WebSocket socket;
    private CompletableFuture<WebSocket> lastSend;
    private volatile boolean stopping;
    private long sent;
    private long nextExpected;
    private long received;
    private long duplicated;
    private long reordered;
    private volatile String failure;

    SequencedClient(int id) {
        this.id = id;
        this.random = new Random(id);
    }

    void connect(HttpClient http, URI uri) throws Exception {
        socket = http.newWebSocketBuilder().connectTimeout(java.time.Duration.ofSeconds(30)).buildAsync(uri, this).get(60, TimeUnit.SECONDS);
        synchronized (this) {
            lastSend = CompletableFuture.completedFuture(socket);
            for (int i = 0; i < IN_FLIGHT; i++) {
                sendNext();
            }
        }
    }

    private void sendNext() {
        String padding = "p".repeat(16 + random.nextInt(random.nextInt(8) == 0 ? 65_536 : 2048));
        String message = id + ":" + sent++ + ":" + padding;
        lastSend = lastSend.thenCompose(ws -> ws.sendText(message, true));
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            String text = partial.toString();
            partial.setLength(0);
            check(text);
        }
        webSocket.request(1);
        return null;
    }

    private synchronized void check(String text) {
        String[] parts = text.split(":", 3);
        long seq = Long.parseLong(parts[1]);
        if (Integer.parseInt(parts[0]) != id) {
            failure = "client " + id + " got client " + parts[0] + "'s message";
        }
        if (seq == nextExpected) {
            nextExpected++;
            received++;
        } else if (seq < nextExpected) {
            duplicated++;
        } else {
            reordered++;
            nextExpected = seq + 1;
            received++;
        }
        if (!stopping) {
            sendNext();
        }
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        failure = "client " + id + ": " + error;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        if (!stopping) {
            failure = "client " + id + " closed by the server: " + statusCode + " " + reason;
        }
        return null;
    }

    /** Stops sending and waits up to {@code millis} for the echoes still in flight. */
    void finish(long millis) throws InterruptedException {
        stopping = true;
        long deadline = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < deadline && outstanding() > 0) {
            Thread.sleep(20);
        }
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
    }

    synchronized long outstanding() {
        return sent - received - duplicated;
    }

    synchronized long sent() {
        return sent;
    }

    synchronized long received() {
        return received;
    }

    synchronized long duplicated() {
        return duplicated;
    }

    synchronized long reordered() {
        return reordered;
    }

    synchronized long lost() {
        return Math.max(0, sent - received);
    }

    String failure() {
        return failure;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
