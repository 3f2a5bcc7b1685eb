package wsjava.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import wsjava.protocol.CloseCodes;
import wsjava.protocol.CloseException;
import wsjava.protocol.DeflateAgreement;
import wsjava.protocol.FrameParser;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.InflationAllowance;
import wsjava.protocol.MessageAssembler;
import wsjava.protocol.MessageDeflater;
import wsjava.protocol.MessageInflater;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;
import wsjava.protocol.Utf8Validator;
import wsjava.server.Compression;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;

/**
 * One client connection after its handshake: a reader thread parses the server's frames with the
 * server's own codec in the client role (masked server frames fail with 1002) and calls the
 * listener; sends are masked with keys from SecureRandom and queued to a writer thread, so no send
 * blocks. The close handshake, pings and the listener interface work as on the server.
 */
final class ClientConnection implements WebSocketConnection {

    private static final AtomicLong IDS = new AtomicLong(1L << 62);

    private final long id = IDS.incrementAndGet();
    private final Socket socket;
    private final URI uri;
    private final ClientConfig config;
    private final ClientHandshake handshake;
    private final WebSocketListener listener;
    private final FrameWriter writer = new FrameWriter(Role.CLIENT, 1 << 20);
    private final MessageDeflater deflater;
    private final MessageInflater inflater;
    private final ClientOutbox outbox;
    private final Object readGate = new Object();
    private volatile boolean open = true;
    private volatile boolean readingSuspended;
    /** The reader waits on the socket now (not paused, not in the listener): silence then means the server sent nothing. */
    private volatile boolean awaitingBytes;
    /** When bytes last arrived from the socket, for the keepalive: liveness, whatever was delivered. */
    private volatile long bytesArrivedNanos = System.nanoTime();
    private volatile boolean closeSent;
    private volatile Object attachment;
    private boolean closeReported;
    private final java.util.concurrent.CompletableFuture<Integer> closedFuture = new java.util.concurrent.CompletableFuture<>();

    ClientConnection(Socket socket, URI uri, ClientConfig config, ClientHandshake handshake, WebSocketListener listener) {
        this.socket = socket;
        this.uri = uri;
        this.config = config;
        this.handshake = handshake;
        this.listener = listener;
        DeflateAgreement deflate = handshake.deflate;
        this.deflater = deflate == null ? null : new MessageDeflater(6, deflate.clientNoContextTakeover());
        this.inflater = deflate == null ? null : new MessageInflater(deflate.serverNoContextTakeover(), config.maxInflationRatio(), null, null,
                InflationAllowance.forMessageLimit(config.maxMessageSize()));
        this.outbox = new ClientOutbox(socket, this::failed, this::outboxFull, config.readPauseBytes(), config.outboundLimitBytes());
    }

    /** Starts the threads and tells the listener the connection is open. */
    void start(InputStream in) {
        outbox.start("wsjava-client-writer-" + id);
        Thread reader = new Thread(() -> readLoop(in), "wsjava-client-reader-" + id);
        reader.setDaemon(true);
        try {
            listener.onOpen(this);
        } catch (RuntimeException e) {
            listenerFailed(e);
        }
        reader.start();
    }

    private void readLoop(InputStream in) {
        FrameParser parser = new FrameParser(Role.CLIENT, deflater == null ? config.maxMessageSize()
                : DeflateAgreement.frameLimit(config.maxMessageSize()), deflater == null ? 0 : DeflateAgreement.RSV);
        MessageAssembler assembler = new MessageAssembler(new ClientCalls(this, listener), config.maxMessageSize(), inflater, null, 0,
                new SuspensionLimits(() -> readingSuspended && open));
        byte[] buffer = new byte[64 * 1024];
        try {
            while (true) {
                awaitReading();
                awaitingBytes = true;
                int n;
                try {
                    n = in.read(buffer);
                } finally {
                    awaitingBytes = false;
                }
                bytesArrivedNanos = System.nanoTime();
                if (n < 0) {
                    closed(CloseCodes.ABNORMAL, closeSent ? "connection closed" : "connection closed without a close frame");
                    return;
                }
                ByteBuffer input = ByteBuffer.wrap(buffer, 0, n);
                parser.parse(input, assembler);
                while (input.hasRemaining()) {      // suspended between two messages of one read: the rest waits
                    awaitReading();
                    if (assembler.resume()) {
                        parser.parse(input, assembler);
                    }
                }
                if (parser.closeReceived() && !open) {
                    return;
                }
            }
        } catch (CloseException e) {
            report(e);
            sendClose(e.code(), e.getMessage());
            closed(e.code(), e.getMessage());
        } catch (IOException e) {
            if (open) {
                report(e);
            }
            closed(CloseCodes.ABNORMAL, "connection lost: " + e.getMessage());
        } finally {
            if (inflater != null) {
                inflater.release();
            }
        }
    }

    /** Waits while the application suspended reading, or while too much waits to be written (back-pressure on the server). */
    private void awaitReading() throws IOException {
        try {
            synchronized (readGate) {
                while (readingSuspended && open) {
                    readGate.wait();
                }
            }
            outbox.awaitRoom();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    /** A send would have taken the unwritten bytes past the limit: the server does not read; the connection fails. */
    private void outboxFull() {
        if (open) {
            report(new IOException("the server does not read: over " + config.outboundLimitBytes() + " bytes unwritten"));
        }
        closed(CloseCodes.POLICY_VIOLATION, "server too slow: over " + config.outboundLimitBytes() + " bytes unwritten");
        try {
            socket.close();      // the writer is stuck on a full socket: a close frame could not get through either
        } catch (IOException ignored) {
            // gone anyway
        }
    }

    /** The server's close frame: echo its code (1000 for none) unless we began, then the server closes TCP. */
    void serverClosed(int code, String reason) {
        sendClose(code == CloseCodes.NO_STATUS ? CloseCodes.NORMAL : code, "");
        closed(code, reason);
    }

    /** A ping's answer: at most one waits at a time, the latest, however many pings the server sends. */
    void pong(byte[] payload) {
        if (open) {
            outbox.addPong(writer.control(OpCode.PONG, payload));
        }
    }

    boolean receiving() {
        return open;
    }

    /** Whether the reader is waiting on the socket now (not suspended, held back, or in the listener). */
    boolean awaitingBytes() {
        return awaitingBytes;
    }

    /** {@link System#nanoTime()} when the last read from the socket returned. */
    long bytesArrivedNanos() {
        return bytesArrivedNanos;
    }

    void listenerFailed(RuntimeException e) {
        report(e);
        close(CloseCodes.INTERNAL_ERROR, "internal error in message handler");
    }

    void report(Throwable error) {
        try {
            listener.onError(this, error);
        } catch (RuntimeException ignored) {
            // the connection is failing anyway
        }
    }

    private void failed(IOException e) {
        if (open) {
            report(e);
        }
        closed(CloseCodes.ABNORMAL, "connection lost while writing: " + e.getMessage());
    }

    /** Ends the connection for good, telling the listener once. */
    private void closed(int code, String reason) {
        synchronized (this) {
            open = false;
            if (closeReported) {
                return;
            }
            closeReported = true;
        }
        synchronized (readGate) {
            readGate.notifyAll();
        }
        outbox.finishThenClose(config.closeTimeoutMillis());
        if (deflater != null) {
            deflater.release();
        }
        try {
            listener.onClose(this, code, reason);
        } catch (RuntimeException ignored) {
            // nothing is left to break
        }
        closedFuture.complete(code);
    }

    @Override
    public java.util.concurrent.CompletableFuture<Integer> closeFuture() {
        return closedFuture;
    }

    /** Drops TCP at once, as a dead network would: the listener hears 1006 with {@code reason}. */
    void abort(String reason) {
        closed(CloseCodes.ABNORMAL, reason);
        try {
            socket.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    private void sendClose(int code, String reason) {
        synchronized (this) {
            if (closeSent) {
                return;
            }
            closeSent = true;
        }
        outbox.addLast(writer.close(code, reason));
    }

    // ---- what the application calls (any thread) ----

    @Override public long id() { return id; }
    @Override public boolean isOpen() { return open && !closeSent; }
    @Override public String path() { return uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath(); }
    @Override public String query() { return uri.getRawQuery() == null ? "" : uri.getRawQuery(); }
    /** For a client: a header of the server's 101 response. */
    @Override public String header(String name) { return handshake.responseHeaders.get(name.toLowerCase(java.util.Locale.ROOT)); }
    /** For a client: the server's 101 response headers. */
    @Override public Map<String, String> headers() { return Collections.unmodifiableMap(handshake.responseHeaders); }
    @Override public String subprotocol() { return handshake.subprotocol; }
    @Override public String extensions() { return handshake.deflate == null ? null : handshake.deflate.responseHeader(); }
    @Override public String remoteAddress() { return socket.getInetAddress().getHostAddress() + ":" + socket.getPort(); }
    /** A client belongs to no server. */
    @Override public WebSocketServer server() { return null; }
    @Override public long queuedBytes() { return outbox.queuedBytes(); }
    @Override public boolean isWritable() { return outbox.heldBytes() <= 512 * 1024; }
    @Override public Object attachment() { return attachment; }
    @Override public void attach(Object value) { attachment = value; }

    @Override
    public boolean sendText(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return send(OpCode.TEXT, utf8, 0, utf8.length, null);
    }

    @Override
    public boolean sendText(byte[] utf8) {
        if (!Utf8Validator.isValid(utf8, 0, utf8.length)) {
            throw new IllegalArgumentException("a text message must be UTF-8");
        }
        return send(OpCode.TEXT, utf8, 0, utf8.length, null);
    }

    @Override
    public boolean sendBinary(byte[] data, int off, int len) {
        return send(OpCode.BINARY, data, off, len, null);
    }

    @Override
    public CompletableFuture<Void> sendTextAsync(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!send(OpCode.TEXT, utf8, 0, utf8.length, done)) {
            done.completeExceptionally(new IOException("the connection is not open"));
        }
        return done;
    }

    @Override
    public CompletableFuture<Void> sendBinaryAsync(byte[] data, int off, int len) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!send(OpCode.BINARY, data, off, len, done)) {
            done.completeExceptionally(new IOException("the connection is not open"));
        }
        return done;
    }

    /** Compressing and queueing under one lock: with context takeover the server inflates in our order. */
    private boolean send(int opcode, byte[] payload, int off, int len, CompletableFuture<Void> done) {
        if (!isOpen()) {
            return false;
        }
        if (deflater == null || len < Compression.DEFAULT.thresholdBytes()) {
            return outbox.add(writer.message(opcode, payload, off, len), done);
        }
        synchronized (deflater) {
            byte[] z = deflater.compress(payload, off, len);
            return outbox.add(writer.message(opcode, z, 0, z.length, true), done);
        }
    }

    @Override
    public boolean ping(byte[] payload) {
        if (payload.length > 125) {
            throw new IllegalArgumentException("a ping payload is at most 125 bytes, was " + payload.length);
        }
        return isOpen() && outbox.add(writer.control(OpCode.PING, payload), null);
    }

    /** Starts the close handshake; the server's close frame, or the close timeout, ends it. */
    @Override
    public void close(int code, String reason) {
        if (!CloseCodes.isValidOnWire(code)) {
            throw new IllegalArgumentException("close code " + code + " may not be sent");
        }
        sendClose(code, reason);
        outbox.closeAfter(config.closeTimeoutMillis(), () -> closed(CloseCodes.ABNORMAL, "no close frame from the server within "
                + config.closeTimeoutMillis() + " ms"));
    }

    @Override
    public void suspendReading() {
        readingSuspended = true;
    }

    @Override
    public void resumeReading() {
        synchronized (readGate) {
            readingSuspended = false;
            readGate.notifyAll();
        }
    }

    @Override
    public String toString() {
        return "WebSocketClientConnection[" + id + ", " + uri + (open ? "" : ", closed") + "]";
    }
}
