package wsjava.client;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketServer;

/**
 * A client connection that stays connected: after an abnormal close (any code but 1000 by default,
 * a lost connection, a keepalive ping left unanswered) or a failed attempt, it connects again to
 * the same URL with exponential backoff and jitter ({@link ReconnectPolicy}), runs the policy's
 * open hook, and goes on under the same id. A 1000 from the server, a code the policy does not
 * name, or the application's own {@link #close} ends it.
 * <pre>
 *   ReconnectingClient feed = ReconnectingClient.connect(URI.create("wss://example.org/feed"), listener,
 *           new ClientConfig().pingIntervalMillis(15_000),
 *           new ReconnectPolicy().onEveryOpen(c -&gt; c.sendText("subscribe prices")));
 * </pre>
 *
 * <p><b>Sends while disconnected are refused</b>, not queued: between a drop and the reopen,
 * {@code sendText} and friends return false (their async forms fail) and {@link #isOpen()} is
 * false. A message meant for a connection that dropped may be stale by the next one, and only
 * the application knows what to send again: send it from the open hook or on
 * {@link ReconnectListener#onReopened}. Messages accepted just before a drop may be lost with it,
 * as with any TCP connection; every message accepted after a reopen goes out on that connection.
 */
public final class ReconnectingClient implements WebSocketConnection {

    private final URI uri;
    private final Reconnector reconnector;
    private volatile Object attachment;

    private ReconnectingClient(URI uri, ReconnectListener listener, ClientConfig config, ReconnectPolicy policy) {
        this.uri = uri;
        this.reconnector = new Reconnector(this, uri, listener, config, policy.copy());
    }

    /**
     * Makes the first connection before returning (its failure is thrown, as by
     * {@link WebSocketClient#connect}, so a wrong URL, a refused upgrade or an untrusted certificate
     * shows at once); from then on it reconnects by itself. {@code onOpen} has been called when this
     * returns.
     */
    public static ReconnectingClient connect(URI uri, ReconnectListener listener, ClientConfig config, ReconnectPolicy policy) throws IOException {
        ReconnectingClient client = new ReconnectingClient(uri, listener, config, policy);
        client.reconnector.connectFirst();
        return client;
    }

    private WebSocketConnection now() {
        return reconnector.current();
    }

    private WebSocketConnection lastKnown() {
        return reconnector.lastKnown();
    }

    /** Whether the client has ended for good (its {@code onClose} is called or about to be). */
    public boolean hasEnded() {
        return reconnector.hasEnded();
    }

    /** Whether it is between a drop and the next open. */
    public boolean isReconnecting() {
        return !hasEnded() && now() == null;
    }

    /** The id of the first connection, kept across reopens. */
    @Override public long id() { return reconnector.id(); }
    @Override public boolean isOpen() { WebSocketConnection c = now(); return c != null && c.isOpen() && !reconnector.closeRequested(); }
    @Override public String path() { return lastKnown().path(); }
    @Override public String query() { return lastKnown().query(); }
    /** A header of the current (or last) connection's 101 response. */
    @Override public String header(String name) { return lastKnown().header(name); }
    @Override public Map<String, String> headers() { return lastKnown().headers(); }
    @Override public String subprotocol() { return lastKnown().subprotocol(); }
    @Override public String extensions() { return lastKnown().extensions(); }
    @Override public String remoteAddress() { return lastKnown().remoteAddress(); }
    /** A client belongs to no server. */
    @Override public WebSocketServer server() { return null; }
    @Override public long queuedBytes() { WebSocketConnection c = now(); return c == null ? 0 : c.queuedBytes(); }
    @Override public boolean isWritable() { WebSocketConnection c = now(); return c != null && c.isWritable(); }
    /** Completes once the client has ended for good and its listener's {@code onClose} has returned. */
    @Override public java.util.concurrent.CompletableFuture<Integer> closeFuture() { return reconnector.closed; }
    @Override public Object attachment() { return attachment; }
    @Override public void attach(Object value) { attachment = value; }

    @Override
    public boolean sendText(String text) {
        WebSocketConnection c = now();
        return c != null && c.sendText(text);
    }

    @Override
    public boolean sendText(byte[] utf8) {
        WebSocketConnection c = now();
        return c != null && c.sendText(utf8);
    }

    @Override
    public boolean sendBinary(byte[] data, int off, int len) {
        WebSocketConnection c = now();
        return c != null && c.sendBinary(data, off, len);
    }

    @Override
    public CompletableFuture<Void> sendTextAsync(String text) {
        WebSocketConnection c = now();
        return c != null ? c.sendTextAsync(text) : CompletableFuture.failedFuture(new IOException("reconnecting: not connected"));
    }

    @Override
    public CompletableFuture<Void> sendBinaryAsync(byte[] data, int off, int len) {
        WebSocketConnection c = now();
        return c != null ? c.sendBinaryAsync(data, off, len) : CompletableFuture.failedFuture(new IOException("reconnecting: not connected"));
    }

    @Override
    public boolean ping(byte[] payload) {
        WebSocketConnection c = now();
        return c != null && c.ping(payload);
    }

    /** Ends the client: the close handshake on the current connection, or at once while reconnecting. */
    @Override
    public void close(int code, String reason) {
        reconnector.close(code, reason);
    }

    @Override
    public void suspendReading() {
        reconnector.suspendReading(true);
    }

    @Override
    public void resumeReading() {
        reconnector.suspendReading(false);
    }

    @Override
    public String toString() {
        return "ReconnectingClient[" + id() + ", " + uri + (hasEnded() ? ", ended" : isReconnecting() ? ", reconnecting" : "") + "]";
    }
}
