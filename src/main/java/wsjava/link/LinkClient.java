package wsjava.link;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Collection;
import java.util.Collections;
import wsjava.client.ClientConfig;
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
        for (int i = 0; i < names.length; i++) {
            apply(config, names[i], values[i]);
        }
        LinkClient client = new LinkClient();
        client.connection = WebSocketClient.connect(URI.create(url), new ClosingListener(client.events, client.closed), config);
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

    /** Open, or its close event still waits for WL: WSJavaWait then drains it before it returns. */
    @Override
    public boolean isRunning() {
        return connection.isOpen() || events.size() > 0;
    }

    /** Closes with 1000 and waits (at most 10 s) until the close is done, so its event is queued when this returns. */
    @Override
    public void stop() {
        if (connection.isOpen()) {
            connection.close(CloseCodes.NORMAL, "");
        }
        try {
            closed.await(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The event queue, plus a latch released once the connection has ended. */
    private static final class ClosingListener implements wsjava.server.WebSocketListener {
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

        @Override
        public void onClose(WebSocketConnection c, int code, String reason) {
            events.onClose(c, code, reason);
            closed.countDown();
        }
    }
}
