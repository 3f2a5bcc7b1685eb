package wsjava.link;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Collection;
import java.util.Collections;
import wsjava.client.ClientConfig;
import wsjava.client.ReconnectListener;
import wsjava.client.ReconnectingClient;
import wsjava.client.WebSocketClient;
import wsjava.protocol.CloseCodes;
import wsjava.server.WebSocketConnection;
import wsjava.tls.TlsContexts;

/**
 * A client connection opened from WL ({@code WSJavaConnect}): its events reach WL through the same
 * queue and draining as a server's, and WL sends and closes through its id as for a server's
 * connection. Options (names as WL passes them): {@code subprotocol} (repeatable), {@code header}
 * ("Name: value", repeatable), {@code compression} on|off, {@code connect-timeout} and
 * {@code max-message}, and for wss:// {@code trust-cert} (a PEM file to trust instead of the system
 * store) or {@code pin} (a certificate's SHA-256 fingerprint).
 *
 * <p>Keepalive: {@code ping-interval} (milliseconds; 0, the default, sends none) and
 * {@code pong-timeout} (milliseconds, default 10000): a ping left unanswered that long drops the
 * connection as dead (close code 1006).
 *
 * <p>Staying connected: {@code reconnect} on|off (default off) makes a {@link ReconnectingClient},
 * tuned by {@code reconnect-initial-delay} and {@code reconnect-max-delay} (milliseconds, default
 * 500 and 30000), {@code reconnect-attempts} (attempts in a row before giving up; 0, the default,
 * never gives up), {@code reconnect-codes} (comma-separated close codes that reconnect; default
 * every code but 1000; the application's own close never does) and {@code open-text} (repeatable:
 * a text sent on every open and reopen, before anything else, such as a subscription). The first
 * connection must succeed (its failure is thrown); the connection keeps its id across reopens;
 * while it is reconnecting, sends are refused (-1). Events: see {@link EventQueue}.
 */
final class LinkClient implements LinkEndpoint {

    private final EventQueue events = new EventQueue();
    private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
    private WebSocketConnection connection;

    static LinkClient connect(String url, String[] names, String[] values) throws IOException {
        if (names.length != values.length) {
            throw new IllegalArgumentException("option names and values differ in length");
        }
        ClientConfig config = new ClientConfig();
        LinkReconnectOptions reconnect = new LinkReconnectOptions();
        for (int i = 0; i < names.length; i++) {
            if (!reconnect.apply(names[i], values[i])) {
                apply(config, names[i], values[i]);
            }
        }
        LinkClient client = new LinkClient();
        ClosingListener listener = new ClosingListener(client.events, client.closed);
        client.connection = reconnect.enabled()
                ? ReconnectingClient.connect(URI.create(url), listener, config, reconnect.policy())
                : WebSocketClient.connect(URI.create(url), listener, config);
        return client;
    }

    private static void apply(ClientConfig config, String name, String value) throws IOException {
        switch (name) {
            case "subprotocol": config.addSubprotocol(value); break;
            case "header":
                int colon = value.indexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException("a header is \"Name: value\", not " + value);
                }
                config.header(value.substring(0, colon).trim(), value.substring(colon + 1).trim());
                break;
            case "compression": config.compression(!"off".equals(value) && !"false".equals(value)); break;
            case "connect-timeout": config.connectTimeoutMillis(Integer.parseInt(value)); break;
            case "max-message": config.maxMessageSize(Integer.parseInt(value)); break;
            case "ping-interval": config.pingIntervalMillis(Integer.parseInt(value)); break;
            case "pong-timeout": config.pongTimeoutMillis(Integer.parseInt(value)); break;
            case "pin": config.pinCertificate(value); break;
            case "trust-cert":
                try {
                    config.tls(TlsContexts.trusting(Path.of(value)));
                } catch (GeneralSecurityException e) {
                    throw new IOException("cannot trust " + value + ": " + e.getMessage(), e);
                }
                break;
            default: throw new IllegalArgumentException("unknown option " + name);
        }
    }

    long connectionId() {
        return connection.id();
    }

    @Override public EventQueue events() { return events; }

    @Override
    public WebSocketConnection connection(long id) {
        return connection.id() == id ? connection : null;
    }

    @Override
    public Collection<WebSocketConnection> connections() {
        return connection.isOpen() ? Collections.singletonList(connection) : Collections.emptyList();
    }

    /** Not yet ended (open, or reconnecting), or its close event still waits for WL: WSJavaWait drains it before it returns. */
    @Override
    public boolean isRunning() {
        synchronized (closed) {     // with onClose: never between the close event's queueing and the latch
            return closed.getCount() > 0 || events.size() > 0;
        }
    }

    /** Closes with 1000 (while reconnecting: ends at once) and waits (at most 10 s) until the close event is queued. */
    @Override
    public void stop() {
        if (closed.getCount() > 0) {
            connection.close(CloseCodes.NORMAL, "");
        }
        try {
            closed.await(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The event queue, plus a latch released once the connection has ended. */
    private static final class ClosingListener implements ReconnectListener {
        private final EventQueue events;
        private final java.util.concurrent.CountDownLatch closed;

        ClosingListener(EventQueue events, java.util.concurrent.CountDownLatch closed) {
            this.events = events;
            this.closed = closed;
        }

        @Override public void onOpen(WebSocketConnection c) { events.onOpen(c); }
        @Override public void onText(WebSocketConnection c, String text) { events.onText(c, text); }
        @Override public void onBinary(WebSocketConnection c, byte[] data) { events.onBinary(c, data); }
        @Override public void onPong(WebSocketConnection c, byte[] payload) { events.onPong(c, payload); }
        @Override public void onWritable(WebSocketConnection c) { events.onWritable(c); }
        @Override public void onError(WebSocketConnection c, Throwable error) { events.onError(c, error); }
        @Override public void onReconnecting(WebSocketConnection c, int attempt, long delayMillis) { events.onReconnecting(c, attempt, delayMillis); }
        @Override public void onReopened(WebSocketConnection c) { events.onReopened(c); }
        @Override public void onGaveUp(WebSocketConnection c, String reason) { events.onGaveUp(c, reason); }

        @Override
        public void onClose(WebSocketConnection c, int code, String reason) {
            synchronized (closed) {
                events.onClose(c, code, reason);
                closed.countDown();
            }
        }
    }
}
