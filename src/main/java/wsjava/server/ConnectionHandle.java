package wsjava.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import wsjava.protocol.CloseCodes;
import wsjava.protocol.CompactRequest;
import wsjava.protocol.HttpRequest;
import wsjava.protocol.OpCode;
import wsjava.protocol.Utf8Validator;

/**
 * What a listener holds: the public face of one upgraded connection. Sends are encoded on the
 * caller's thread and queued whole; whatever changes the connection's state is handed to its
 * I/O thread, which owns the {@link ServerConnection} state machine.
 */
final class ConnectionHandle implements WebSocketConnection {

    /** Its server, frame writer and outbox are the connection's: not kept again here. */
    private final ServerConnection connection;
    /** The upgrade request, folded: an idle connection should cost little (see CompactRequest). */
    private final CompactRequest request;
    private final String remoteAddress;
    private final String subprotocol;
    private final String extensions;
    /** Made at the first use (most connections never subscribe); by compare-and-set, not under a lock a caller may hold. */
    private volatile TopicMembership topics;
    private static final AtomicReferenceFieldUpdater<ConnectionHandle, TopicMembership> TOPICS =
            AtomicReferenceFieldUpdater.newUpdater(ConnectionHandle.class, TopicMembership.class, "topics");
    /** Set once, at the upgrade, before the handle is shown to anyone. */
    private volatile MessageEncoder encoder;
    private volatile Object attachment;

    ConnectionHandle(ServerConnection connection, HttpRequest request, String remoteAddress, AcceptedUpgrade upgrade) {
        this.connection = connection;
        this.request = CompactRequest.of(request);
        this.remoteAddress = remoteAddress;
        this.subprotocol = upgrade.subprotocol;
        this.extensions = upgrade.extensions();
    }

    void encodeWith(MessageEncoder messageEncoder) {
        encoder = messageEncoder;
    }

    @Override public long id() { return connection.id(); }
    @Override public boolean isOpen() { return connection.isOpen(); }
    @Override public String path() { return request.path(); }
    @Override public String query() { return request.query(); }
    @Override public String header(String name) { return request.unfold().header(name); }
    @Override public Map<String, String> headers() { return request.unfold().headers(); }
    @Override public String subprotocol() { return subprotocol; }
    @Override public String extensions() { return extensions; }
    @Override public String remoteAddress() { return remoteAddress; }
    @Override public WebSocketServer server() { return connection.server; }
    @Override public long queuedBytes() { return connection.outbox.queuedBytes(); }
    @Override public boolean isWritable() { return connection.outbox.isWritable(); }
    @Override public Object attachment() { return attachment; }
    @Override public void attach(Object value) { attachment = value; }
    @Override public void suspendReading() { connection.pauseReading(true); }
    @Override public void resumeReading() { connection.pauseReading(false); }
    @Override public boolean subscribe(String topic) { return membership().subscribe(topic); }

    @Override
    public boolean unsubscribe(String topic) {
        TopicMembership made = topics;
        if (made == null) {
            TopicMembership.checkName(topic);
            return false;
        }
        return made.unsubscribe(topic);
    }

    @Override
    public java.util.Set<String> topics() {
        TopicMembership made = topics;
        return made == null ? java.util.Set.of() : made.topics();
    }

    /**
     * The connection closed (its state was set first): it leaves its topics. With none made there is
     * nothing to leave, and a subscribe racing with the close cannot join one: it makes its membership
     * before it asks whether the connection is open, and this reads the field after the state was
     * set (both volatile), so either this sees that membership or that subscribe sees the close.
     */
    void leaveTopics() {
        TopicMembership made = topics;
        if (made != null) {
            made.leaveAll();
        }
    }

    private TopicMembership membership() {
        WebSocketServer server = connection.server;
        TopicMembership made = topics;
        if (made == null) {
            TOPICS.compareAndSet(this, null, new TopicMembership(this, server.topicIndex(), server.settings().maxTopicsPerConnection()));
            made = topics;
        }
        return made;
    }

    @Override
    public boolean sendText(String text) {
        if (!isOpen()) {
            return false;
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return counted(encoder.enqueue(OpCode.TEXT, utf8, 0, utf8.length, null, true));
    }

    @Override
    public boolean sendText(byte[] utf8) {
        if (!Utf8Validator.isValid(utf8, 0, utf8.length)) {
            throw new IllegalArgumentException("a text message must be UTF-8");
        }
        return isOpen() && send(OpCode.TEXT, utf8, 0, utf8.length, null);
    }

    @Override
    public boolean sendBinary(byte[] data, int off, int len) {
        return isOpen() && send(OpCode.BINARY, data, off, len, null);
    }

    @Override
    public CompletableFuture<Void> sendTextAsync(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return sendAsync(OpCode.TEXT, utf8, 0, utf8.length);
    }

    @Override
    public CompletableFuture<Void> sendBinaryAsync(byte[] data, int off, int len) {
        return sendAsync(OpCode.BINARY, data, off, len);
    }

    private CompletableFuture<Void> sendAsync(int opcode, byte[] payload, int off, int len) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!isOpen()) {
            done.completeExceptionally(new IOException("the connection is not open"));
        } else {
            send(opcode, payload, off, len, done);
        }
        return done;
    }

    @Override
    public CompletableFuture<Void> sendBinaryAsync(java.nio.ByteBuffer data) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!isOpen()) {
            done.completeExceptionally(new IOException("the connection is not open"));
        } else {
            counted(encoder.enqueueBinary(data, done));
        }
        return done;
    }

    @Override
    public boolean sendBinary(java.nio.ByteBuffer data) {
        if (!isOpen()) {
            return false;
        }
        if (connection.takeOwnedView(data)) {     // an assembled message sent on from its callback: its buffer is free
            return counted(encoder.enqueueOwned(data, connection.releaseWhenSent(data)));
        }
        return counted(encoder.sendBinaryNow(data));
    }

    private boolean send(int opcode, byte[] payload, int off, int len, CompletableFuture<Void> done) {
        return counted(encoder.enqueue(opcode, payload, off, len, done, false));
    }

    /** Queues a message sent to many connections, sharing its encoded frames where it can. */
    boolean sendBroadcast(Broadcast message) {
        return counted(encoder.enqueue(message));
    }

    private boolean counted(boolean queued) {
        if (queued) {
            connection.server.stats().count(connection.loop, LoopCounters.MESSAGES_OUT, 1);
        }
        return queued;
    }

    @Override
    public boolean ping(byte[] payload) {
        if (payload.length > 125) {
            throw new IllegalArgumentException("a ping payload is at most 125 bytes, was " + payload.length);
        }
        return isOpen() && connection.outbox.enqueue(connection.writer.control(OpCode.PING, payload));
    }

    @Override
    public void close(int code, String reason) {
        if (!CloseCodes.isValidOnWire(code)) {
            throw new IllegalArgumentException("close code " + code + " may not be sent");
        }
        connection.closeSoon(code, reason);
    }

    @Override
    public String toString() {
        return connection.toString();
    }
}
