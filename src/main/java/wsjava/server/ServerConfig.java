package wsjava.server;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a {@link WebSocketServer} can be told, with defaults safe for a laptop: loopback only,
 * browsers accepted only from the server's own origin, bounded headers, frames, messages, queues
 * and connection counts. Setters return {@code this} so a config reads as one expression.
 */
public final class ServerConfig {

    /** The port used when none is given; documented in the README. */
    public static final int DEFAULT_PORT = 20580;

    /** The shortest token the CLI and WL accept: 16 characters (a generated one has 32). */
    public static final int MIN_TOKEN_LENGTH = 16;

    private String host = "127.0.0.1";
    private int port = DEFAULT_PORT;
    private int ioThreads = Runtime.getRuntime().availableProcessors();
    private int maxHeaderBytes = 8 * 1024;
    private int handshakeTimeoutMillis = 10_000;
    private int maxFramePayload = defaultMaxMessage();
    private int maxMessageSize = defaultMaxMessage();
    private int maxConnections = 20_000;
    private int outboundFragmentSize = 1024 * 1024;
    private long outboundLimitBytes = 64L * 1024 * 1024;
    private long outputBudgetBytes = Runtime.getRuntime().maxMemory() / 4;
    private long readPauseBytes = 1024 * 1024;
    private long writableThresholdBytes = 512 * 1024;
    private long inboundBudgetBytes = Math.min(Runtime.getRuntime().maxMemory(), DirectMemory.max()) / 4;
    private int maxInflationRatio = 200;
    private int partialMessageTimeoutMillis = 20_000;
    private int maxHandshakes = 1024;
    private int maxHandshakesPerAddress = 256;
    private int headTimeoutMillis = 3_000;
    private long zlibBudgetBytes = Runtime.getRuntime().maxMemory() / 8;
    private boolean requireToken;
    private int closeTimeoutMillis = 5_000;
    private int pingIntervalMillis = 0;
    private int idleTimeoutMillis = 0;
    private int maxTopicsPerConnection = 256;
    private long topicBudgetBytes = Runtime.getRuntime().maxMemory() / 16;
    private final List<String> allowedOrigins = new ArrayList<>();
    private boolean allowAnyOrigin;
    private boolean allowHostOrigin;
    private String accessToken;
    private boolean allowNoToken;
    private final List<String> subprotocols = new ArrayList<>();
    private final List<String> trustedProxies = new ArrayList<>();
    private boolean serveDemoPage = true;
    private byte[] page;
    private final Map<String, WebSocketListener> routes = new LinkedHashMap<>();
    private UpgradeHandler upgradeHandler;
    private Compression compression = Compression.DEFAULT;
    private javax.net.ssl.SSLContext tls;
    private IoTransport transport = IoTransport.AUTO;

    public String host() { return host; }
    public int port() { return port; }
    public int ioThreads() { return ioThreads; }
    public int maxHeaderBytes() { return maxHeaderBytes; }
    public int handshakeTimeoutMillis() { return handshakeTimeoutMillis; }
    public int maxFramePayload() { return maxFramePayload; }
    public int maxMessageSize() { return maxMessageSize; }
    public int maxConnections() { return maxConnections; }
    public int outboundFragmentSize() { return outboundFragmentSize; }
    public long outboundLimitBytes() { return outboundLimitBytes; }
    public long outputBudgetBytes() { return outputBudgetBytes; }
    public long readPauseBytes() { return readPauseBytes; }
    public long writableThresholdBytes() { return writableThresholdBytes; }
    public long inboundBudgetBytes() { return inboundBudgetBytes; }
    public int maxInflationRatio() { return maxInflationRatio; }
    public int partialMessageTimeoutMillis() { return partialMessageTimeoutMillis; }
    public int maxHandshakes() { return maxHandshakes; }
    public int maxHandshakesPerAddress() { return maxHandshakesPerAddress; }
    public int headTimeoutMillis() { return headTimeoutMillis; }
    public long zlibBudgetBytes() { return zlibBudgetBytes; }
    public boolean requireToken() { return requireToken; }
    public int closeTimeoutMillis() { return closeTimeoutMillis; }
    public int pingIntervalMillis() { return pingIntervalMillis; }
    public int idleTimeoutMillis() { return idleTimeoutMillis; }
    public int maxTopicsPerConnection() { return maxTopicsPerConnection; }
    public long topicBudgetBytes() { return topicBudgetBytes; }
    public List<String> allowedOrigins() { return Collections.unmodifiableList(allowedOrigins); }
    public boolean allowAnyOrigin() { return allowAnyOrigin; }
    public boolean allowHostOrigin() { return allowHostOrigin; }
    public String accessToken() { return accessToken; }
    public boolean allowNoToken() { return allowNoToken; }
    public List<String> subprotocols() { return Collections.unmodifiableList(subprotocols); }
    public List<String> trustedProxies() { return Collections.unmodifiableList(trustedProxies); }
    public boolean serveDemoPage() { return serveDemoPage; }
    /** The application's own page for {@code GET /} (UTF-8 HTML), or null: the demo page then, unless it is off. */
    public byte[] page() { return page == null ? null : page.clone(); }
    public Map<String, WebSocketListener> routes() { return Collections.unmodifiableMap(routes); }
    public UpgradeHandler upgradeHandler() { return upgradeHandler; }
    public Compression compression() { return compression; }
    public javax.net.ssl.SSLContext tls() { return tls; }
    public IoTransport transport() { return transport; }

    /** Interface to bind; "0.0.0.0" exposes the server to the network, which the README warns about. */
    public ServerConfig host(String value) { host = value; return this; }
    /** 0 picks a free port; {@link WebSocketServer#port()} tells which. */
    public ServerConfig port(int value) { port = check(value, 0, 65535, "port"); return this; }
    public ServerConfig ioThreads(int value) { ioThreads = check(value, 1, 256, "ioThreads"); return this; }
    public ServerConfig maxHeaderBytes(int value) { maxHeaderBytes = check(value, 256, 1 << 20, "maxHeaderBytes"); return this; }
    public ServerConfig handshakeTimeoutMillis(int value) { handshakeTimeoutMillis = check(value, 1, Integer.MAX_VALUE, "handshakeTimeoutMillis"); return this; }
    public ServerConfig maxFramePayload(int value) { maxFramePayload = check(value, 125, Integer.MAX_VALUE - 64, "maxFramePayload"); return this; }
    public ServerConfig maxMessageSize(int value) { maxMessageSize = check(value, 1, Integer.MAX_VALUE - 64, "maxMessageSize"); return this; }
    public ServerConfig maxConnections(int value) { maxConnections = check(value, 1, Integer.MAX_VALUE, "maxConnections"); return this; }
    /** Messages we send that are longer than this go out as several frames. */
    public ServerConfig outboundFragmentSize(int value) { outboundFragmentSize = check(value, 1, Integer.MAX_VALUE, "outboundFragmentSize"); return this; }
    /** A connection whose unsent bytes exceed this is dropped as too slow (close code 1008 reported). */
    public ServerConfig outboundLimitBytes(long value) { outboundLimitBytes = value; return this; }
    /**
     * The output all connections together may hold before stalled ones are shed (default a quarter
     * of the heap): past it, a client with more than the read pause waiting that has taken nothing
     * for a second is dropped (1008). Without it, clients that never read would each hold up to
     * {@link #outboundLimitBytes(long)}.
     */
    public ServerConfig outputBudgetBytes(long value) {
        outputBudgetBytes = checkPositive(value, "outputBudgetBytes");
        return this;
    }
    /** Reading from a connection pauses while this many bytes wait to be sent to it. */
    public ServerConfig readPauseBytes(long value) { readPauseBytes = value; return this; }
    /** Above this many queued bytes a connection is not writable; see {@link WebSocketConnection#isWritable()}. */
    public ServerConfig writableThresholdBytes(long value) { writableThresholdBytes = value; return this; }
    /**
     * Bytes of incoming messages (and input read but not yet parsed) buffered across all
     * connections before connections that need more stop reading until there is room (default: a
     * quarter of the heap or of direct memory, whichever is smaller). One connection at a time may
     * go past it (the overdraft), by at most as much again, or one message when that is larger.
     */
    public ServerConfig inboundBudgetBytes(long value) {
        inboundBudgetBytes = checkPositive(value, "inboundBudgetBytes");
        return this;
    }
    /**
     * Past the first MiB, a compressed message may inflate at most this many times its compressed
     * size (else close 1009); 0 turns the cap off. Default 200, as Apache's DeflateInflateRatioLimit.
     */
    public ServerConfig maxInflationRatio(int value) { maxInflationRatio = check(value, 0, Integer.MAX_VALUE, "maxInflationRatio"); return this; }
    /** A message whose sender sends nothing for this long, while it is read, fails with 1008; 0 never. */
    public ServerConfig partialMessageTimeoutMillis(int value) { partialMessageTimeoutMillis = check(value, 0, Integer.MAX_VALUE, "partialMessageTimeoutMillis"); return this; }
    /**
     * Sockets that have not upgraded yet (a handshake or an HTTP answer in progress) beyond this
     * many, or beyond half the connection limit, push out the oldest of them (default 1024).
     */
    public ServerConfig maxHandshakes(int value) { maxHandshakes = check(value, 1, Integer.MAX_VALUE, "maxHandshakes"); return this; }
    /** Handshakes in progress from one address beyond this many push out that address's oldest (default 256). */
    public ServerConfig maxHandshakesPerAddress(int value) { maxHandshakesPerAddress = check(value, 1, Integer.MAX_VALUE, "maxHandshakesPerAddress"); return this; }
    /**
     * A reverse proxy (an IP address) whose connections may name their client in
     * {@code X-Forwarded-For} (repeatable). For those connections only, the last hop that is not a
     * trusted proxy is the remote address the listener sees; their handshakes are held only to the
     * cap of all, not to one address's share. The header is ignored from every other address.
     */
    public ServerConfig addTrustedProxy(String address) {
        if (ForwardedFor.literal(address) == null) {
            throw new IllegalArgumentException("a trusted proxy must be an IP address, got " + address);
        }
        trustedProxies.add(address);
        return this;
    }
    /** The whole request head must arrive within this long of the connection (of the TLS handshake with TLS): else 408. */
    public ServerConfig headTimeoutMillis(int value) { headTimeoutMillis = check(value, 1, Integer.MAX_VALUE, "headTimeoutMillis"); return this; }
    /**
     * Native memory for zlib streams (permessage-deflate) the server agrees to keep across
     * connections (default: an eighth of the heap). Past it, new connections get no context
     * takeover; past twice it, no compression.
     */
    public ServerConfig zlibBudgetBytes(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("zlibBudgetBytes must not be negative, was " + value);
        }
        zlibBudgetBytes = value;
        return this;
    }
    /** Makes a token (see {@link WebSocketServer#accessToken()}) even on loopback, when none is given. */
    public ServerConfig requireToken(boolean value) { requireToken = value; return this; }
    public ServerConfig closeTimeoutMillis(int value) { closeTimeoutMillis = check(value, 1, Integer.MAX_VALUE, "closeTimeoutMillis"); return this; }
    /** 0 disables keepalive pings. */
    public ServerConfig pingIntervalMillis(int value) { pingIntervalMillis = check(value, 0, Integer.MAX_VALUE, "pingIntervalMillis"); return this; }
    /** A connection that sends nothing (not even a pong) for this long is closed; 0 disables. */
    public ServerConfig idleTimeoutMillis(int value) { idleTimeoutMillis = check(value, 0, Integer.MAX_VALUE, "idleTimeoutMillis"); return this; }
    /**
     * The most topics one connection may subscribe to (default 256): beyond it
     * {@link WebSocketConnection#subscribe} says false, so clients that choose their own topics
     * cannot make the server hold unbounded ones.
     */
    public ServerConfig maxTopicsPerConnection(int value) { maxTopicsPerConnection = check(value, 1, Integer.MAX_VALUE, "maxTopicsPerConnection"); return this; }
    /**
     * The heap all topics and subscriptions together may hold (default a sixteenth of the heap),
     * counted as {@link WebSocketServer#topicMemoryBytes()} counts it: once it is reached,
     * {@link WebSocketConnection#subscribe} says false to new subscriptions, so many connections
     * each at their own limit cannot fill the heap between them.
     */
    public ServerConfig topicBudgetBytes(long value) {
        topicBudgetBytes = checkPositive(value, "topicBudgetBytes");
        return this;
    }
    /** Adds a browser origin allowed to connect, for example {@code http://127.0.0.1:20560}. */
    public ServerConfig addAllowedOrigin(String origin) { allowedOrigins.add(stripSlash(origin)); return this; }
    /** Turns the Origin check off: any web page may connect. Only for servers that need it. */
    public ServerConfig allowAnyOrigin(boolean value) { allowAnyOrigin = value; return this; }
    /**
     * Also accept an Origin whose host and port equal the host a reverse proxy forwarded the
     * request for ({@code X-Forwarded-Host}, else {@code Host}), for a server behind a proxy whose
     * public URL it cannot know. Only requests that came through a proxy (with
     * {@code X-Forwarded-For} or {@code Forwarded}) and an http or https Origin match, so a
     * DNS-rebinding page that reaches the server directly does not. Off by default.
     */
    public ServerConfig allowHostOrigin(boolean value) { allowHostOrigin = value; return this; }
    /**
     * When set, upgrades must carry {@code ?token=...} or {@code Authorization: Bearer ...}. Use at
     * least {@link #MIN_TOKEN_LENGTH} random characters (the CLI and WL refuse shorter ones).
     */
    public ServerConfig accessToken(String value) { accessToken = value == null || value.isEmpty() ? null : value; return this; }
    /**
     * Lets a server bound beyond loopback run without a token. Off by default: there, without one,
     * {@link WebSocketServer#start()} generates a token ({@link WebSocketServer#accessToken()}). Only
     * for a server whose network is private, such as a container behind an authenticating proxy.
     */
    public ServerConfig allowNoToken(boolean value) { allowNoToken = value; return this; }
    public ServerConfig addSubprotocol(String value) { subprotocols.add(value); return this; }
    public ServerConfig serveDemoPage(boolean value) { serveDemoPage = value; return this; }
    /**
     * Serves {@code html} at {@code GET /} (and {@code /index.html}) instead of the demo page, with
     * the same headers (nosniff, no caching), so an application's own page and its WebSocket share
     * one origin, which the Origin check then accepts. Null puts the demo page back.
     */
    public ServerConfig page(String html) {
        page = html == null ? null : html.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return this;
    }
    /**
     * Upgrades to exactly {@code path} go to {@code listener}. Once any route is set, an upgrade to
     * a path without one gets 404, and the server's own listener serves no path.
     */
    public ServerConfig route(String path, WebSocketListener listener) {
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("a route is a path starting with '/', not " + path);
        }
        routes.put(path, listener);
        return this;
    }
    /** Decides each upgrade after the Origin and token checks (authentication, subprotocol, headers, listener). */
    public ServerConfig upgradeHandler(UpgradeHandler value) { upgradeHandler = value; return this; }

    /** permessage-deflate: {@link Compression#DEFAULT} (on), {@link Compression#OFF}, or tuned. */
    public ServerConfig compression(Compression value) {
        if (value == null) {
            throw new IllegalArgumentException("compression must not be null; use Compression.OFF");
        }
        compression = value;
        return this;
    }

    /**
     * Serves wss:// and https:// with this context (see {@code wsjava.tls.TlsContexts} for PEM
     * files, a PKCS#12 keystore or a throwaway self-signed certificate); null serves ws://.
     */
    /** The transport to run on; see {@link IoTransport}. */
    public ServerConfig transport(IoTransport value) { transport = java.util.Objects.requireNonNull(value, "transport"); return this; }
    public ServerConfig tls(javax.net.ssl.SSLContext value) { tls = value; return this; }

    /** An independent copy: a server keeps one, so changing a config after it is passed changes nothing. */
    public ServerConfig copy() {
        ServerConfig c = new ServerConfig();
        c.host = host;
        c.port = port;
        c.ioThreads = ioThreads;
        c.maxHeaderBytes = maxHeaderBytes;
        c.handshakeTimeoutMillis = handshakeTimeoutMillis;
        c.maxFramePayload = maxFramePayload;
        c.maxMessageSize = maxMessageSize;
        c.maxConnections = maxConnections;
        c.outboundFragmentSize = outboundFragmentSize;
        c.outboundLimitBytes = outboundLimitBytes;
        c.outputBudgetBytes = outputBudgetBytes;
        c.readPauseBytes = readPauseBytes;
        c.writableThresholdBytes = writableThresholdBytes;
        c.inboundBudgetBytes = inboundBudgetBytes;
        c.maxInflationRatio = maxInflationRatio;
        c.partialMessageTimeoutMillis = partialMessageTimeoutMillis;
        c.maxHandshakes = maxHandshakes;
        c.maxHandshakesPerAddress = maxHandshakesPerAddress;
        c.headTimeoutMillis = headTimeoutMillis;
        c.zlibBudgetBytes = zlibBudgetBytes;
        c.requireToken = requireToken;
        c.closeTimeoutMillis = closeTimeoutMillis;
        c.pingIntervalMillis = pingIntervalMillis;
        c.idleTimeoutMillis = idleTimeoutMillis;
        c.maxTopicsPerConnection = maxTopicsPerConnection;
        c.topicBudgetBytes = topicBudgetBytes;
        c.allowedOrigins.addAll(allowedOrigins);
        c.allowAnyOrigin = allowAnyOrigin;
        c.allowHostOrigin = allowHostOrigin;
        c.accessToken = accessToken;
        c.allowNoToken = allowNoToken;
        c.subprotocols.addAll(subprotocols);
        c.trustedProxies.addAll(trustedProxies);
        c.serveDemoPage = serveDemoPage;
        c.page = page;
        c.routes.putAll(routes);
        c.upgradeHandler = upgradeHandler;
        c.compression = compression;
        c.tls = tls;
        c.transport = transport;
        return c;
    }

    /** 16 MiB, or a sixteenth of the heap when that is less (a small heap could not take many such messages at once). */
    private static int defaultMaxMessage() {
        return (int) Math.min(16L * 1024 * 1024, Math.max(1024 * 1024, Runtime.getRuntime().maxMemory() / 16));
    }

    private static int check(int value, int min, int max, String name) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }

    private static long checkPositive(long value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }

    private static String stripSlash(String origin) {
        return origin.endsWith("/") ? origin.substring(0, origin.length() - 1) : origin;
    }
}
