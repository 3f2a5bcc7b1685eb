package wsjava.server;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import wsjava.protocol.CloseCodes;

/**
 * One client connection, as a {@link WebSocketListener} sees it. Every method is safe from any
 * thread: a message is encoded whole and queued atomically, so two messages' frames never
 * interleave. An interface, so an application's own tests can fake it.
 */
public interface WebSocketConnection {

    /** Unique within this JVM; WL code uses it to name the connection. */
    long id();

    /** True from the 101 response until a close frame is sent or received. */
    boolean isOpen();

    /** The request path of the upgrade, for example "/chat". */
    String path();

    /** The query of the upgrade request without '?', or "". */
    String query();

    /** A request header of the upgrade (case-insensitive name), or null. */
    String header(String name);

    /** The upgrade request's headers, names in lower case, repeated ones joined with ", ". */
    Map<String, String> headers();

    /** The subprotocol agreed on, or null. */
    String subprotocol();

    /** The {@code Sec-WebSocket-Extensions} we answered (for example permessage-deflate's parameters), or null. */
    default String extensions() {
        return null;
    }

    /** The client's address as "ip:port"; from a trusted proxy, the client it names, as "ip" (see {@link ServerConfig#addTrustedProxy}). */
    String remoteAddress();

    WebSocketServer server();

    /** Bytes queued but not yet taken by the socket. */
    long queuedBytes();

    /** Queues a text message; false when the connection is not open (or was dropped as too slow). */
    boolean sendText(String text);

    /** Queues a text message given as UTF-8 bytes; throws IllegalArgumentException when they are not UTF-8. */
    boolean sendText(byte[] utf8);

    boolean sendBinary(byte[] data, int off, int len);

    default boolean sendBinary(byte[] data) {
        return sendBinary(data, 0, data.length);
    }

    /**
     * Sends a binary message from {@code data}'s remaining bytes, keeping no reference to the
     * buffer: the caller may reuse it once this returns, so a listener can send on the view it was
     * given. On the I/O thread, with nothing queued before it, what the socket takes is written at
     * once and only the rest is copied. The buffer's position is not moved. False when not queued.
     */
    default boolean sendBinary(java.nio.ByteBuffer data) {
        byte[] copy = new byte[data.remaining()];
        data.duplicate().get(copy);
        return sendBinary(copy);
    }

    /**
     * Queues a binary message from {@code data}'s remaining bytes without copying them where it can
     * (a plain message of one frame goes out as its header plus this buffer, in one gathering write):
     * the caller must not change those bytes until the future completes. The buffer's position is
     * not moved.
     */
    default CompletableFuture<Void> sendBinaryAsync(java.nio.ByteBuffer data) {
        byte[] copy = new byte[data.remaining()];
        data.duplicate().get(copy);
        return sendBinaryAsync(copy);
    }

    /**
     * Queues a text message; the future completes once its last byte is handed to the socket, or
     * fails (IOException) if the connection is not open or ends first. Its callbacks run on the
     * I/O thread: they must not block.
     */
    CompletableFuture<Void> sendTextAsync(String text);

    /** {@link #sendTextAsync} for binary. */
    CompletableFuture<Void> sendBinaryAsync(byte[] data, int off, int len);

    default CompletableFuture<Void> sendBinaryAsync(byte[] data) {
        return sendBinaryAsync(data, 0, data.length);
    }

    /**
     * False while more than {@link ServerConfig#writableThresholdBytes()} waits to be sent; when
     * half of that has been written, {@link WebSocketListener#onWritable} is called. A producer
     * that checks this never piles up more than the threshold (plus a message).
     */
    boolean isWritable();

    /** Sends a ping; its payload is at most 125 bytes (RFC 6455 section 5.5), else IllegalArgumentException. */
    boolean ping(byte[] payload);

    /** Starts the close handshake with a code allowed on the wire; a no-op once closing. */
    void close(int code, String reason);

    default void close() {
        close(CloseCodes.NORMAL, "");
    }

    /**
     * A client's connection: completes with the close code once the connection has closed and the
     * listener's {@code onClose} has returned, so a program can wait for its close handshake
     * ({@code c.close(); c.closeFuture().get(10, SECONDS);}). A server's connections report their
     * close through {@code onClose} only: for them it fails with UnsupportedOperationException.
     */
    default java.util.concurrent.CompletableFuture<Integer> closeFuture() {
        return java.util.concurrent.CompletableFuture.failedFuture(
                new UnsupportedOperationException("a server's connection reports its close through onClose"));
    }

    /**
     * Stops reading from this client until {@link #resumeReading()}: TCP then pushes back on it.
     * Messages already read may still be delivered; nothing is dropped.
     */
    void suspendReading();

    /** Undoes {@link #suspendReading()}. */
    void resumeReading();

    /**
     * Subscribes this connection to {@code topic} (1 to 256 characters), so that
     * {@link WebSocketServer#publish(String, String)} to it reaches this connection. True when it is
     * subscribed afterwards (also when it already was); false when the connection is not open or
     * already holds {@link ServerConfig#maxTopicsPerConnection()} topics, or the server's topics
     * hold {@link ServerConfig#topicBudgetBytes()} between them. A closed connection leaves
     * all its topics. A client's connection, or a fake, belongs to no server's topics: false.
     */
    default boolean subscribe(String topic) {
        return false;
    }

    /** Leaves {@code topic}; true when the connection was subscribed to it. */
    default boolean unsubscribe(String topic) {
        return false;
    }

    /** The topics this connection is subscribed to now (a copy). */
    default java.util.Set<String> topics() {
        return java.util.Set.of();
    }

    /** Whatever the application attached. */
    Object attachment();

    void attach(Object value);
}
