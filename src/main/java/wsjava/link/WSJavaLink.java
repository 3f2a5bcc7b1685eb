package wsjava.link;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import wsjava.Version;
import wsjava.mask.Masker;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.Handshake;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;
import wsjava.protocol.Utf8Validator;
import wsjava.server.WebSocketConnection;

/**
 * The whole surface the WSJava paclet calls through J/Link: static methods only, each name used
 * once (no overloads for J/Link to confuse), parameters and results of types J/Link converts
 * directly (String, int, long, boolean, and arrays of them). Servers are named by a long handle,
 * so WL holds no JavaObject references to release.
 *
 * <p>Bytes cross as Base64 Strings ({@code BaseEncode}/{@code BaseDecode} are native in WL); the
 * {@code ...Integers} variants take {@code byte[]} (a WL list of integers) so the two transfers
 * can be measured against each other on a real engine.
 *
 * <p>Every method here is checked against the WL sources by {@code JLinkContractTest}.
 */
public final class WSJavaLink {

    /** Servers and client connections, by the handle WL holds. */
    private static final Map<Long, LinkEndpoint> ENDPOINTS = new ConcurrentHashMap<>();
    private static final AtomicLong HANDLES = new AtomicLong();
    private static final Base64.Encoder B64 = Base64.getEncoder();
    private static final Base64.Decoder UNB64 = Base64.getDecoder();

    private WSJavaLink() {
    }

    public static String version() {
        return Version.VERSION;
    }

    /** The version of the JVM J/Link started. */
    public static String javaVersion() {
        return System.getProperty("java.version");
    }

    /** "scalar" or "simd-N": which masking kernel this JVM runs. */
    public static String maskImplementation() {
        return Masker.implementation();
    }

    // ---- protocol functions ----

    /** Masks (or unmasks) Base64 bytes with a key given as an unsigned 32-bit number (key byte 0 most significant). */
    public static String maskBase64(long key, String payloadBase64) {
        byte[] payload = UNB64.decode(payloadBase64);
        Masker.mask(payload, 0, payload.length, (int) key, 0);
        return B64.encodeToString(payload);
    }

    /** The same with bytes as a WL integer list (J/Link's byte[]), for measuring that transfer. */
    public static byte[] maskIntegers(long key, byte[] payload) {
        byte[] out = payload.clone();
        Masker.mask(out, 0, out.length, (int) key, 0);
        return out;
    }

    /**
     * Median nanoseconds to mask {@code size} bytes in place inside the JVM, over {@code repeats}
     * timed calls after a warm-up: the masking cost with no transfer, for the WL benchmark.
     */
    public static long benchmarkMaskNanos(long key, int size, int repeats) {
        return MaskTiming.medianNanos((int) key, size, repeats);
    }

    public static String acceptKey(String key) {
        return Handshake.acceptKey(key);
    }

    /**
     * Checks an upgrade request (Base64 of its bytes). Flat result: status ("0" when the head is
     * incomplete), Base64 response to send, path, query, chosen subprotocol, reason, Base64 of the
     * bytes after the head, then header name/value pairs (names lower-case).
     */
    public static String[] handshake(String requestBase64, String[] subprotocols) {
        return FlatHandshake.check(UNB64.decode(requestBase64), subprotocols);
    }

    /** One frame as Base64: unmasked in the server role, masked with a random key when {@code masked}. */
    public static String encodeFrame(int opcode, boolean fin, String payloadBase64, boolean masked) {
        byte[] payload = UNB64.decode(payloadBase64);
        FrameWriter writer = new FrameWriter(masked ? Role.CLIENT : Role.SERVER, Integer.MAX_VALUE - 64);
        return B64.encodeToString(writer.frame(opcode, fin, payload, 0, payload.length));
    }

    /** Whole frames in Base64 bytes; see {@link FrameCodecs#decode} for the flat layout. */
    public static String[] decodeFrames(String bytesBase64, boolean serverRole, int maxFramePayload) {
        return FrameCodecs.decode(UNB64.decode(bytesBase64), serverRole ? Role.SERVER : Role.CLIENT, maxFramePayload);
    }

    // ---- server functions ----

    /**
     * The largest message a WL handler should be given by default in this JVM: a 64th of the heap,
     * between 1 MiB and 16 MiB (see {@code LinkServer}); what a server started without
     * {@code max-message} uses, and what WL's {@code "MaxMessageSize" -> Automatic} can ask for.
     */
    public static int defaultMaxMessageSize() {
        return LinkServer.defaultMaxMessageSize();
    }

    /** Starts a server with named options (the CLI's, without "--"); returns its handle. */
    public static long startServer(String[] optionNames, String[] optionValues) throws IOException {
        LinkServer s = LinkServer.start(optionNames, optionValues);
        long handle = HANDLES.incrementAndGet();
        ENDPOINTS.put(handle, s);
        return handle;
    }

    /**
     * Opens a client connection to a ws:// or wss:// URL (blocking until its handshake is done or
     * failed, within its connect timeout); returns a handle that the server functions below take
     * (poll, send, close, isRunning, stop, forget). Option names are {@link LinkClient}'s, among
     * them, as name/value string pairs: "reconnect" ("on"/"off", default off),
     * "reconnect-initial-delay" and "reconnect-max-delay" (milliseconds, default 500 and 30000),
     * "reconnect-attempts" (0 = unlimited, the default), "reconnect-codes" (comma-separated close
     * codes that count as abnormal; default every code but 1000, and the user's own close never
     * reconnects), "open-text" (repeatable: sent on every open and reopen, first), "ping-interval"
     * and "pong-timeout" (milliseconds; pings are off by default, the timeout is 10000).
     *
     * <p>With reconnect on, the first connection must still succeed (its failure is thrown here);
     * later drops and failed attempts give the events "Reconnecting" (code field = attempt number,
     * data = the delay in milliseconds as a decimal string), "Reopened" (info fields as for "Open":
     * path, query, remote address, Origin, subprotocol) or "GaveUp" (data = the reason, then a
     * "Close" with 1006), all under the same connection id, which {@link #clientConnection} keeps
     * returning. While it is reconnecting, sends return -1 and {@link #isOpen} is false;
     * {@link #isRunning} stays true until the client has ended and its events are taken.
     */
    public static long connect(String url, String[] optionNames, String[] optionValues) throws IOException {
        LinkClient c = LinkClient.connect(url, optionNames, optionValues);
        long handle = HANDLES.incrementAndGet();
        ENDPOINTS.put(handle, c);
        return handle;
    }

    /** The id of a client handle's one connection (the same across reopens with reconnect on). */
    public static long clientConnection(long client) {
        LinkEndpoint e = get(client);
        if (!(e instanceof LinkClient)) {
            throw new IllegalArgumentException("handle " + client + " is a server, not a client");
        }
        return ((LinkClient) e).connectionId();
    }

    public static int serverPort(long server) {
        return server(server).server.port();
    }

    public static String serverUrl(long server) {
        return server(server).server.url();
    }

    /** The token clients must present (generated when the server is exposed and none was given), or null. */
    public static String serverToken(long server) {
        return server(server).server.accessToken();
    }

    /** A server that serves, or a client that is open or has events WL has not taken yet. */
    public static boolean isRunning(long server) {
        LinkEndpoint e = ENDPOINTS.get(server);
        return e != null && e.isRunning();
    }

    /**
     * Up to {@code max} events, {@link EventQueue#FIELDS} strings each; waits up to
     * {@code timeoutMillis} (at most a minute) for the first.
     */
    public static String[] poll(long server, int timeoutMillis, int max) throws InterruptedException {
        return get(server).events().poll(Math.max(0, Math.min(timeoutMillis, 60_000)), Math.max(1, max));
    }

    /** Sends a text message; its size in UTF-8 bytes, or -1 when the connection is not open. */
    public static int sendText(long server, long connection, String text) {
        WebSocketConnection c = get(server).connection(connection);
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return c != null && c.sendText(utf8) ? utf8.length : -1;
    }

    /**
     * Sends Base64 bytes as one message: binary, or, when {@code textWhenUtf8}, text if the bytes are
     * valid UTF-8 (what WLJS means by sending a ByteArray). Its size, or -1 when not sent.
     */
    public static int sendBytesBase64(long server, long connection, String dataBase64, boolean textWhenUtf8) {
        WebSocketConnection c = get(server).connection(connection);
        byte[] data = UNB64.decode(dataBase64);
        if (c == null) {
            return -1;
        }
        boolean sent = textWhenUtf8 ? RawFrames.sendMessage(c, OpCode.TEXT, data) : c.sendBinary(data);
        return sent ? data.length : -1;
    }

    /** The same with bytes as a WL integer list (J/Link's byte[]), for measuring that transfer. */
    public static int sendBinaryIntegers(long server, long connection, byte[] data) {
        WebSocketConnection c = get(server).connection(connection);
        return c != null && c.sendBinary(data) ? data.length : -1;
    }

    /** Sends frames WL encoded itself (Base64) as messages; bytes taken, or -1 (see {@link RawFrames}). */
    public static int sendFramesBase64(long server, long connection, String framesBase64) {
        WebSocketConnection c = get(server).connection(connection);
        return c == null ? -1 : RawFrames.send(c, UNB64.decode(framesBase64));
    }

    public static int broadcastText(long server, String text) {
        return server(server).server.broadcastText(text);
    }

    public static int broadcastBinaryBase64(long server, String dataBase64) {
        return server(server).server.broadcastBinary(UNB64.decode(dataBase64));
    }

    /**
     * Broadcasts text that WL sends as its UTF-8 bytes (text beyond the BMP, so that no surrogate
     * pair crosses J/Link); how many connections took it, or -1 when the bytes are not UTF-8.
     */
    public static int broadcastUtf8Base64(long server, String utf8Base64) {
        String text = utf8Text(utf8Base64);
        return text == null ? -1 : server(server).server.broadcastText(text);
    }

    /** Base64 of UTF-8 as a String, or null when the bytes are not UTF-8. */
    private static String utf8Text(String utf8Base64) {
        byte[] utf8 = UNB64.decode(utf8Base64);
        return Utf8Validator.isValid(utf8, 0, utf8.length) ? new String(utf8, StandardCharsets.UTF_8) : null;
    }

    // ---- topics (a server's connections only; a client handle throws IllegalArgumentException) ----

    /**
     * Subscribes a server's connection to {@code topic} (1 to 256 characters, else
     * IllegalArgumentException). True when it is subscribed afterwards, also when it already was;
     * false when the connection is not open (or gone) or already holds its limit of topics (server
     * option "max-topics", default 256). A connection leaves all its topics when it closes.
     */
    public static boolean subscribe(long server, long connection, String topic) {
        WebSocketConnection c = server(server).server.connection(connection);
        return c != null && c.subscribe(topic);
    }

    /** Leaves {@code topic}; true when the connection was subscribed to it, false otherwise (or when it is gone). */
    public static boolean unsubscribe(long server, long connection, String topic) {
        WebSocketConnection c = server(server).server.connection(connection);
        return c != null && c.unsubscribe(topic);
    }

    /** The connection's topics, sorted; empty when it has none or is gone. */
    public static String[] topics(long server, long connection) {
        WebSocketConnection c = server(server).server.connection(connection);
        return c == null ? new String[0] : c.topics().stream().sorted().toArray(String[]::new);
    }

    /**
     * Publishes a text message to {@code topic}: every open connection subscribed to it gets it
     * (and, with a relay such as wsjava-redis set on the server, other servers' subscribers).
     * Returns how many of this server's connections took it (0 when none subscribes).
     */
    public static int publishText(long server, String topic, String text) {
        return server(server).server.publish(topic, text);
    }

    /** {@link #publishText} for a binary message given as Base64. */
    public static int publishBinaryBase64(long server, String topic, String dataBase64) {
        return server(server).server.publish(topic, UNB64.decode(dataBase64));
    }

    /**
     * {@link #publishText} for text WL sends as its UTF-8 bytes in Base64 (text beyond the BMP, so
     * that no surrogate pair crosses J/Link); -1 when the bytes are not UTF-8.
     */
    public static int publishUtf8Base64(long server, String topic, String utf8Base64) {
        String text = utf8Text(utf8Base64);
        return text == null ? -1 : server(server).server.publish(topic, text);
    }

    /** Starts the close handshake; false when the connection is not open. */
    public static boolean closeConnection(long server, long connection, int code, String reason) {
        WebSocketConnection c = get(server).connection(connection);
        if (c == null || !c.isOpen()) {
            return false;
        }
        c.close(code, reason);
        return true;
    }

    public static long[] connections(long server) {
        return get(server).connections().stream().mapToLong(WebSocketConnection::id).sorted().toArray();
    }

    /** Whether the connection is open: false once its close handshake has started, or when it is gone. */
    public static boolean isOpen(long server, long connection) {
        WebSocketConnection c = get(server).connection(connection);
        return c != null && c.isOpen();
    }

    /** The request headers of an open connection as name/value pairs (names lower-case); empty when it is gone. */
    public static String[] connectionHeaders(long server, long connection) {
        WebSocketConnection c = get(server).connection(connection);
        if (c == null) {
            return new String[0];
        }
        return c.headers().entrySet().stream().flatMap(e -> java.util.stream.Stream.of(e.getKey(), e.getValue()))
            .toArray(String[]::new);
    }

    // ---- a real client, for the acceptance run on an engine ----

    /**
     * Starts {@code count} round trips of {@code text} against {@code url} with the JDK's WebSocket
     * client, on its own thread, so the kernel stays free to run the server's handlers meanwhile.
     * Returns a handle for {@link #probeResult}.
     */
    public static long startProbe(String url, String origin, String text, int count) {
        return ProbeClient.start(url, origin, text, count);
    }

    /**
     * Waits up to {@code waitMillis} for a probe: {"running"} while it runs, else {"ok", round trips,
     * median microseconds, last reply} or {"failed", reason}.
     */
    public static String[] probeResult(long probe, int waitMillis) throws InterruptedException {
        return ProbeClient.result(probe, Math.max(0, Math.min(waitMillis, 60_000)));
    }

    /** open connections, messages in, messages out, bytes in, bytes out, events waiting for WL. */
    public static long[] stats(long server) {
        LinkServer s = server(server);
        return new long[] {s.server.connectionCount(), s.server.stats().messagesIn(), s.server.stats().messagesOut(),
            s.server.stats().bytesIn(), s.server.stats().bytesOut(), s.events().size()};
    }

    /**
     * Graceful stop (1001 to every client). The handle stays valid so WL can still drain the close
     * events; {@link #forgetServer} releases it. Returns false when there was no such server.
     */
    public static boolean stopServer(long server) {
        LinkEndpoint e = ENDPOINTS.get(server);
        if (e == null) {
            return false;
        }
        e.stop();
        return true;
    }

    /** Drops a stopped server's (or client's) handle and any events still queued. */
    public static boolean forgetServer(long server) {
        LinkEndpoint e = ENDPOINTS.remove(server);
        if (e != null && e.isRunning()) {
            e.stop();
        }
        return e != null;
    }

    private static LinkEndpoint get(long handle) {
        LinkEndpoint e = ENDPOINTS.get(handle);
        if (e == null) {
            throw new IllegalArgumentException("no WSJava server or client with handle " + handle + " (stopped?)");
        }
        return e;
    }

    private static LinkServer server(long handle) {
        LinkEndpoint e = get(handle);
        if (!(e instanceof LinkServer)) {
            throw new IllegalArgumentException("handle " + handle + " is a client, not a server");
        }
        return (LinkServer) e;
    }
}
