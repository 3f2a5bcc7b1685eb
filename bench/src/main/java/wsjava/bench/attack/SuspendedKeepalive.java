package wsjava.bench.attack;

import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import wsjava.client.ClientConfig;
import wsjava.client.ReconnectListener;
import wsjava.client.ReconnectPolicy;
import wsjava.client.ReconnectingClient;
import wsjava.server.WebSocketConnection;

/**
 * Issue 30, item 5: a reconnecting client with keepalive suspends its reading (application
 * back-pressure, a busy WL kernel) for several pong timeouts while the server, alive throughout,
 * echoes what it keeps sending. Keepalive must judge liveness by bytes arriving, not by messages
 * delivered: the bound is no reconnect and no echo lost (before: a 4 s suspension gave 2
 * reconnects and lost 338 of 643 messages).
 */
final class SuspendedKeepalive extends Attack {

    private static final int PING_MILLIS = 100;
    private static final int PONG_TIMEOUT_MILLIS = 400;

    private ReconnectingClient client;
    private final AtomicInteger echoes = new AtomicInteger();
    private final AtomicInteger reconnects = new AtomicInteger();
    private int sent;
    private long bytes;
    private long suspendedMillis;

    @Override
    String name() {
        return "suspended-keepalive";
    }

    @Override
    String description(Scale scale) {
        return "a reconnecting client (ping every " + PING_MILLIS + " ms, pong timeout " + PONG_TIMEOUT_MILLIS + " ms) suspends reading for "
                + scale.millis(4000, 2000) / 1000 + " s while it sends a message every 5 ms for the server to echo";
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        client = ReconnectingClient.connect(URI.create("ws://127.0.0.1:" + server.port + "/"), new ReconnectListener() {
            @Override public void onText(WebSocketConnection c, String text) { echoes.incrementAndGet(); }
            @Override public void onReconnecting(WebSocketConnection c, int attempt, long delayMillis) { reconnects.incrementAndGet(); }
            @Override public void onReopened(WebSocketConnection c) { }
            @Override public void onGaveUp(WebSocketConnection c, String reason) { }
        }, new ClientConfig().pingIntervalMillis(PING_MILLIS).pongTimeoutMillis(PONG_TIMEOUT_MILLIS),
                new ReconnectPolicy().initialDelayMillis(20).maxDelayMillis(100));
        suspendedMillis = scale.millis(4000, 2000);
        client.suspendReading();
        long until = System.nanoTime() + suspendedMillis * 1_000_000;
        while (System.nanoTime() < until) {
            send();
            Thread.sleep(5);
        }
        client.resumeReading();
        for (int i = 0; i < 20; i++) {
            send();
            Thread.sleep(10);
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (echoes.get() < sent && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    private void send() {
        String m = "message " + sent;
        if (client.sendText(m)) {
            sent++;
            bytes += m.length();
        }
    }

    @Override
    long bytesSent() {
        return bytes;
    }

    @Override
    String detail() {
        return reconnects.get() + " reconnects, " + (sent - echoes.get()) + " of " + sent + " echoes lost over " + suspendedMillis + " ms suspended";
    }

    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        if (reconnects.get() > 0) {
            problems.add(reconnects.get() + " reconnects while the server was alive and reading was only suspended");
        }
        if (echoes.get() != sent) {
            problems.add((sent - echoes.get()) + " of " + sent + " echoes lost");
        }
        return problems;
    }

    @Override
    public void close() {
        if (client != null) {
            client.close(1000, "");
        }
    }
}
