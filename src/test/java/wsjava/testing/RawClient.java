package wsjava.testing;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Random;
import wsjava.protocol.CloseException;
import wsjava.protocol.Frame;
import wsjava.protocol.FrameCollector;
import wsjava.protocol.FrameParser;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.Role;

/**
 * A deliberately low-level WebSocket client over a blocking socket: it sends whatever bytes a
 * test builds (valid or not, chopped however the test likes) and reads the server's frames with
 * the project's parser in the client role, which also rejects any masked server frame.
 */
public final class RawClient implements Closeable {

    /** What {@link #readFrame} returns when the server closed TCP. */
    public static final Frame EOF = null;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private FrameParser parser = new FrameParser(Role.CLIENT, Integer.MAX_VALUE - 64);
    private final FrameCollector collector = new FrameCollector();
    private final ArrayDeque<Frame> ready = new ArrayDeque<>();
    private final byte[] readBuffer = new byte[256 * 1024];
    private ByteBuffer leftover;
    private boolean eof;
    public final FrameWriter writer;
    private String responseHead;

    /** How long a blocking read waits before failing with SocketTimeoutException. */
    public static final int DEFAULT_TIMEOUT_MILLIS = 30_000;

    /** When set, every RawClient connects through TLS with it (the TLS run of the conformance suite). */
    private static volatile javax.net.ssl.SSLSocketFactory tls;

    /** Routes every RawClient made from now on through TLS with {@code factory}, or back to plain TCP with null. */
    public static void useTls(javax.net.ssl.SSLSocketFactory factory) {
        tls = factory;
    }

    public static boolean usesTls() {
        return tls != null;
    }

    public RawClient(int port) throws IOException {
        socket = tls == null ? new Socket("127.0.0.1", port) : tls.createSocket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(DEFAULT_TIMEOUT_MILLIS);   // a read never hangs a test run
        in = socket.getInputStream();
        out = socket.getOutputStream();
        writer = new FrameWriter(Role.CLIENT, Integer.MAX_VALUE - 64, new Random(port));
    }

    public void setTimeoutMillis(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /** A small receive buffer keeps what the server sends in the server's queue, not in this socket. */
    public void setReceiveBufferSize(int bytes) throws IOException {
        socket.setReceiveBufferSize(bytes);
    }

    /** Connects and completes a standard upgrade; throws unless the answer is 101. */
    public static RawClient open(int port) throws IOException {
        RawClient c = new RawClient(port);
        int status = c.handshake("/", "");
        if (status != 101) {
            throw new IOException("expected 101, got " + c.responseHead);
        }
        return c;
    }

    public static String request(String path, String extraHeaders) {
        String key = Base64.getEncoder().encodeToString(new byte[16]);
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n" + extraHeaders + "\r\n";
    }

    /**
     * Connects offering {@code extensionOffer} in Sec-WebSocket-Extensions; throws unless the answer
     * is 101. Server frames with RSV1 (compressed messages) are then accepted; the test inflates them.
     */
    public static RawClient openOffering(int port, String extensionOffer) throws IOException {
        RawClient c = new RawClient(port);
        int status = c.handshake("/", "Sec-WebSocket-Extensions: " + extensionOffer + "\r\n");
        if (status != 101) {
            throw new IOException("expected 101, got " + c.responseHead);
        }
        c.parser = new FrameParser(Role.CLIENT, Integer.MAX_VALUE - 64, 4);
        return c;
    }

    /** A header of the last response, or null (the first one with that name, case-insensitively). */
    public String responseHeader(String name) {
        for (String line : responseHead.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    /** Sends an upgrade request and returns the response status. */
    public int handshake(String path, String extraHeaders) throws IOException {
        return sendRequest(request(path, extraHeaders));
    }

    /** Sends any request head and reads the response head; returns its status, or -1 on EOF. */
    public int sendRequest(String head) throws IOException {
        send(head.getBytes(StandardCharsets.ISO_8859_1));
        return readResponseHead();
    }

    public int readResponseHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                responseHead = head.toString(StandardCharsets.ISO_8859_1);
                return -1;
            }
            head.write(b);
        }
        responseHead = head.toString(StandardCharsets.ISO_8859_1);
        return Integer.parseInt(responseHead.substring(9, 12));
    }

    /** The last response head, status line and headers. */
    public String responseHead() {
        return responseHead;
    }

    /** Reads a plain HTTP body after the head, to EOF. */
    public String readToEof() throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    public void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Sends in TCP writes of at most {@code chunk} bytes, optionally pausing between them. */
    public void sendChopped(byte[] bytes, int chunk, long pauseMillis) throws IOException, InterruptedException {
        for (int at = 0; at < bytes.length; at += chunk) {
            out.write(bytes, at, Math.min(chunk, bytes.length - at));
            out.flush();
            if (pauseMillis > 0) {
                Thread.sleep(pauseMillis);
            }
        }
    }

    /**
     * The next frame, or {@link #EOF} when the server closed TCP. Throws
     * {@link SocketTimeoutException} when nothing arrives in time, and {@link CloseException}
     * when the server sent something invalid (a masked frame, for example).
     */
    public Frame readFrame(int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        while (ready.isEmpty()) {
            if (eof) {
                return EOF;
            }
            int n = in.read(readBuffer);
            if (n < 0) {
                eof = true;
                continue;
            }
            parser.parse(ByteBuffer.wrap(readBuffer, 0, n), collector);
            ready.addAll(collector.drain());
        }
        return ready.poll();
    }

    /** Whether the server closes TCP within the time (after any frames, which are discarded). */
    public boolean closedByServerWithin(int timeoutMillis) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        try {
            while (System.currentTimeMillis() < deadline) {
                if (readFrame((int) Math.max(1, deadline - System.currentTimeMillis())) == EOF) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;    // reset by the server counts as closed
        }
        return false;
    }

    /** Drops the connection without a close frame; {@code reset} sends RST instead of FIN. */
    public void abort(boolean reset) throws IOException {
        if (reset) {
            socket.setSoLinger(true, 0);
        }
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
