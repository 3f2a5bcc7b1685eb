package wsjava.link;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import wsjava.Version;
import wsjava.mask.Masker;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.Handshake;
import wsjava.protocol.HandshakeException;
import wsjava.protocol.HttpRequest;
import wsjava.protocol.HttpRequestParser;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;
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

    private static final Map<Long, LinkServer> SERVERS = new ConcurrentHashMap<>();
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
        byte[] data = new byte[size];
        new java.util.Random(size).nextBytes(data);
        for (int i = 0; i < 2_000; i++) {
            Masker.mask(data, 0, Math.min(size, 4096), (int) key, 0);
        }
        long[] times = new long[Math.max(1, repeats)];
        for (int i = 0; i < times.length; i++) {
            long t = System.nanoTime();
            Masker.mask(data, 0, size, (int) key, 0);
            times[i] = System.nanoTime() - t;
        }
        Arrays.sort(times);
        return times[times.length / 2];
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
        ByteBuffer in = ByteBuffer.wrap(UNB64.decode(requestBase64));
        try {
            HttpRequest request = new HttpRequestParser(64 * 1024).parse(in);
            if (request == null) {
                return new String[] {"0", "", "", "", "", "incomplete request head", ""};
            }
            byte[] rest = new byte[in.remaining()];
            in.get(rest);
            String[] head;
            try {
                Handshake.HandshakeResponse response = Handshake.accept(request, Arrays.asList(subprotocols));
                head = new String[] {"101", B64.encodeToString(response.bytes()), request.path(), request.query(),
                    response.subprotocol() == null ? "" : response.subprotocol(), "", B64.encodeToString(rest)};
            } catch (HandshakeException e) {
                head = new String[] {Integer.toString(e.status()), B64.encodeToString(e.toHttpResponse()), request.path(),
                    request.query(), "", e.getMessage(), B64.encodeToString(rest)};
            }
            Map<String, String> headers = request.headers();
            String[] out = Arrays.copyOf(head, head.length + 2 * headers.size());
            int at = head.length;
            for (Map.Entry<String, String> h : headers.entrySet()) {
                out[at++] = h.getKey();
                out[at++] = h.getValue();
            }
            return out;
        } catch (HandshakeException e) {
            return new String[] {Integer.toString(e.status()), B64.encodeToString(e.toHttpResponse()), "", "", "", e.getMessage(), ""};
        }
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

    /** Starts a server with named options (the CLI's, without "--"); returns its handle. */
    public static long startServer(String[] optionNames, String[] optionValues) throws IOException {
        LinkServer s = LinkServer.start(optionNames, optionValues);
        long handle = HANDLES.incrementAndGet();
        SERVERS.put(handle, s);
        return handle;
    }

    public static int serverPort(long server) {
        return get(server).server.port();
    }

    public static String serverUrl(long server) {
        return get(server).server.url();
    }

    /** The token clients must present (generated when the server is exposed and none was given), or null. */
    public static String serverToken(long server) {
        return get(server).server.accessToken();
    }

    public static boolean isRunning(long server) {
        LinkServer s = SERVERS.get(server);
        return s != null && s.server.isRunning();
    }

    /**
     * Up to {@code max} events, {@link EventQueue#FIELDS} strings each; waits up to
     * {@code timeoutMillis} (at most a minute) for the first.
     */
    public static String[] poll(long server, int timeoutMillis, int max) throws InterruptedException {
        return get(server).events.poll(Math.max(0, Math.min(timeoutMillis, 60_000)), Math.max(1, max));
    }

    /** Sends a text message; its size in UTF-8 bytes, or -1 when the connection is not open. */
    public static int sendText(long server, long connection, String text) {
        WebSocketConnection c = get(server).server.connection(connection);
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return c != null && c.sendText(utf8) ? utf8.length : -1;
    }

    /**
     * Sends Base64 bytes as one message: binary, or, when {@code textWhenUtf8}, text if the bytes are
     * valid UTF-8 (what WLJS means by sending a ByteArray). Its size, or -1 when not sent.
     */
    public static int sendBytesBase64(long server, long connection, String dataBase64, boolean textWhenUtf8) {
        WebSocketConnection c = get(server).server.connection(connection);
        byte[] data = UNB64.decode(dataBase64);
        if (c == null) {
            return -1;
        }
        boolean sent = textWhenUtf8 ? RawFrames.sendMessage(c, OpCode.TEXT, data) : c.sendBinary(data);
        return sent ? data.length : -1;
    }

    /** The same with bytes as a WL integer list (J/Link's byte[]), for measuring that transfer. */
    public static int sendBinaryIntegers(long server, long connection, byte[] data) {
        WebSocketConnection c = get(server).server.connection(connection);
        return c != null && c.sendBinary(data) ? data.length : -1;
    }

    /** Sends frames WL encoded itself (Base64) as messages; bytes taken, or -1 (see {@link RawFrames}). */
    public static int sendFramesBase64(long server, long connection, String framesBase64) {
        WebSocketConnection c = get(server).server.connection(connection);
        return c == null ? -1 : RawFrames.send(c, UNB64.decode(framesBase64));
    }

    public static int broadcastText(long server, String text) {
        return get(server).server.broadcastText(text);
    }

    public static int broadcastBinaryBase64(long server, String dataBase64) {
        return get(server).server.broadcastBinary(UNB64.decode(dataBase64));
    }

    /** Starts the close handshake; false when the connection is not open. */
    public static boolean closeConnection(long server, long connection, int code, String reason) {
        WebSocketConnection c = get(server).server.connection(connection);
        if (c == null || !c.isOpen()) {
            return false;
        }
        c.close(code, reason);
        return true;
    }

    public static long[] connections(long server) {
        return get(server).server.connections().stream().mapToLong(WebSocketConnection::id).sorted().toArray();
    }

    /** Whether the connection is open: false once its close handshake has started, or when it is gone. */
    public static boolean isOpen(long server, long connection) {
        WebSocketConnection c = get(server).server.connection(connection);
        return c != null && c.isOpen();
    }

    /** The request headers of an open connection as name/value pairs (names lower-case); empty when it is gone. */
    public static String[] connectionHeaders(long server, long connection) {
        WebSocketConnection c = get(server).server.connection(connection);
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
        LinkServer s = get(server);
        return new long[] {s.server.connectionCount(), s.server.stats().messagesIn(), s.server.stats().messagesOut(),
            s.server.stats().bytesIn(), s.server.stats().bytesOut(), s.events.size()};
    }

    /**
     * Graceful stop (1001 to every client). The handle stays valid so WL can still drain the close
     * events; {@link #forgetServer} releases it. Returns false when there was no such server.
     */
    public static boolean stopServer(long server) {
        LinkServer s = SERVERS.get(server);
        if (s == null) {
            return false;
        }
        s.server.stop();
        return true;
    }

    /** Drops a stopped server's handle and any events still queued. */
    public static boolean forgetServer(long server) {
        LinkServer s = SERVERS.remove(server);
        if (s != null && s.server.isRunning()) {
            s.server.stop();
        }
        return s != null;
    }

    private static LinkServer get(long handle) {
        LinkServer s = SERVERS.get(handle);
        if (s == null) {
            throw new IllegalArgumentException("no WSJava server with handle " + handle + " (stopped?)");
        }
        return s;
    }
}
