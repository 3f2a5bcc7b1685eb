package wsjava.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * What a {@link WebSocketClient} connection can be told. Defaults: 10 s to connect and complete the
 * handshake, 16 MiB messages, permessage-deflate offered, wss:// checked against the system trust
 * store and the URL's host name.
 */
public final class ClientConfig {

    private int connectTimeoutMillis = 10_000;
    private int closeTimeoutMillis = 5_000;
    private int maxMessageSize = 16 * 1024 * 1024;
    private int maxInflationRatio = 200;
    private long readPauseBytes = 1024 * 1024;
    private long outboundLimitBytes = 64L * 1024 * 1024;
    private boolean compression = true;
    private int pingIntervalMillis;
    private int pongTimeoutMillis = 10_000;
    private final List<String> subprotocols = new ArrayList<>();
    private final Map<String, String> headers = new LinkedHashMap<>();
    private SSLContext tls;
    private String pinnedSha256;

    public int connectTimeoutMillis() { return connectTimeoutMillis; }
    public int closeTimeoutMillis() { return closeTimeoutMillis; }
    public int maxMessageSize() { return maxMessageSize; }
    public int maxInflationRatio() { return maxInflationRatio; }
    public long readPauseBytes() { return readPauseBytes; }
    public long outboundLimitBytes() { return outboundLimitBytes; }
    public boolean compression() { return compression; }
    public int pingIntervalMillis() { return pingIntervalMillis; }
    public int pongTimeoutMillis() { return pongTimeoutMillis; }
    public List<String> subprotocols() { return Collections.unmodifiableList(subprotocols); }
    public Map<String, String> headers() { return Collections.unmodifiableMap(headers); }
    public SSLContext tls() { return tls; }
    public String pinnedSha256() { return pinnedSha256; }

    /** Time for TCP connect, TLS and the opening handshake together. */
    public ClientConfig connectTimeoutMillis(int value) { connectTimeoutMillis = positive(value, "connectTimeoutMillis"); return this; }
    /** How long to wait for the server's close frame before dropping TCP. */
    public ClientConfig closeTimeoutMillis(int value) { closeTimeoutMillis = positive(value, "closeTimeoutMillis"); return this; }
    /** Larger messages from the server fail the connection with 1009. */
    public ClientConfig maxMessageSize(int value) { maxMessageSize = positive(value, "maxMessageSize"); return this; }
    /** Past the first MiB, a compressed message may inflate at most this many times its size (else 1009); 0: no cap. */
    public ClientConfig maxInflationRatio(int value) {
        if (value < 0) {
            throw new IllegalArgumentException("maxInflationRatio must not be negative, was " + value);
        }
        maxInflationRatio = value;
        return this;
    }
    /** While more than this waits to be written (at its real cost), the server is not read: TCP pushes back on it. */
    public ClientConfig readPauseBytes(long value) { readPauseBytes = positive(value, "readPauseBytes"); return this; }
    /** A send that would hold more than this unwritten is refused and the connection fails with 1008. */
    public ClientConfig outboundLimitBytes(long value) { outboundLimitBytes = positive(value, "outboundLimitBytes"); return this; }
    /** Whether to offer permessage-deflate (on by default). */
    public ClientConfig compression(boolean value) { compression = value; return this; }
    /**
     * Sends a keepalive ping this often (0, the default: never); when no byte arrives from the
     * server within {@link #pongTimeoutMillis(int)} of it while the client is reading, the
     * connection is taken for dead and dropped (the listener hears 1006), which a
     * {@link ReconnectingClient} reconnects after. Time the client does not read (reading
     * suspended, a busy listener) does not count.
     */
    public ClientConfig pingIntervalMillis(int value) {
        if (value < 0) {
            throw new IllegalArgumentException("pingIntervalMillis must not be negative, was " + value);
        }
        pingIntervalMillis = value;
        return this;
    }
    /** How long a keepalive ping may go unanswered (default 10 s). */
    public ClientConfig pongTimeoutMillis(int value) { pongTimeoutMillis = positive(value, "pongTimeoutMillis"); return this; }
    /**
     * Offers a subprotocol (repeatable, most preferred first); the server must choose one of these or
     * none. It must be a token (RFC 6455 section 4.1): no spaces, commas or control characters.
     */
    public ClientConfig addSubprotocol(String value) { subprotocols.add(HeaderSyntax.token(value, "subprotocol")); return this; }
    /**
     * An extra request header, for example {@code Authorization} or {@code Origin}. The name must be
     * a token and the value may hold no control character but tab (RFC 7230 section 3.2): a CR or LF
     * would end the header and start one the caller did not mean.
     */
    public ClientConfig header(String name, String value) {
        headers.put(HeaderSyntax.token(name, "header name"), HeaderSyntax.fieldValue(value, name));
        return this;
    }
    /** The SSLContext for wss:// (default: the JVM's, with the system trust store). */
    public ClientConfig tls(SSLContext value) { tls = value; return this; }
    /**
     * Trusts exactly the certificate with this SHA-256 fingerprint (hex, colons optional), for a
     * server with a self-signed certificate; the trust store and host name are then not consulted.
     */
    public ClientConfig pinCertificate(String sha256) {
        pinnedSha256 = sha256.replace(":", "").toUpperCase(java.util.Locale.ROOT);
        if (!pinnedSha256.matches("[0-9A-F]{64}")) {
            throw new IllegalArgumentException("a SHA-256 fingerprint is 32 bytes in hex, not " + sha256);
        }
        return this;
    }

    private static long positive(long value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }

    private static int positive(int value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }
}
