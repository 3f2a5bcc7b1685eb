package wsjava.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;
import wsjava.server.internal.EventRoom;

/**
 * A non-blocking WebSocket server: a few I/O threads (one per core by default) serve all
 * connections. Also answers plain HTTP on the same port: {@code GET /} is the demo page.
 *
 * <pre>
 *   try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start()) {
 *       ... server.port() ...
 *   }   // close() is stop()
 * </pre>
 */
public final class WebSocketServer implements AutoCloseable {

    private final ServerConfig config;
    private final ServerStats stats = new ServerStats();
    private final ConnectionRegistry registry = new ConnectionRegistry(stats);
    private final ServerLimits limits;
    /** The server role's writer keeps no state (no masking keys): one serves every connection and broadcast. */
    private final FrameWriter frameWriter;
    private final Topics topics;
    private final HttpAnswers answers;
    private final ServerLifecycle lifecycle;
    private volatile boolean readingSuspended;

    /**
     * The server keeps its own copy of {@code config}: later changes to it change nothing here.
     * {@code listener} serves every path; it may be null when the config's routes decide.
     */
    public WebSocketServer(ServerConfig config, WebSocketListener listener) {
        if (listener == null && config.routes().isEmpty()) {
            throw new IllegalArgumentException("a server needs a listener, or routes in its config");
        }
        this.config = config.copy();
        this.answers = new HttpAnswers(this.config, listener);
        this.frameWriter = new FrameWriter(Role.SERVER, config.outboundFragmentSize());
        this.topics = new Topics(frameWriter, config.compression().level(), config.topicBudgetBytes());
        this.limits = new ServerLimits(config, listener instanceof EventRoom ? (EventRoom) listener : null, this);
        this.lifecycle = new ServerLifecycle(this, this.config, registry);
    }

    /**
     * Binds and starts the I/O threads. Returns this server. If binding fails nothing is left open
     * and {@code start()} may be tried again; a server that was stopped cannot be started again.
     */
    public WebSocketServer start() throws IOException {
        lifecycle.start(answers::started);
        return this;
    }

    public int port() {
        return lifecycle.port();
    }

    /**
     * The transport this server runs on, "nio" or "ffm" (see {@link IoTransport}), once started;
     * null before.
     */
    public String transport() {
        return lifecycle.transport();
    }

    public String host() {
        return config.host();
    }

    /**
     * The token upgrades must carry ({@code ?token=} or {@code Authorization: Bearer}), or null. A
     * server started on a non-loopback address without one has a generated token here.
     */
    public String accessToken() {
        return answers.token();
    }

    /** Whether {@link #accessToken()} was generated at start because the server is exposed to the network. */
    public boolean accessTokenGenerated() {
        return answers.tokenGenerated();
    }

    /** A copy of the configuration this server runs with. */
    public ServerConfig config() {
        return config.copy();
    }

    /** The configuration itself, for the server's own classes (read on every event: no copy). */
    ServerConfig settings() {
        return config;
    }

    /** The frame writer every connection of this server shares. */
    FrameWriter frameWriter() {
        return frameWriter;
    }

    public ServerStats stats() {
        return stats;
    }

    /** What all connections' output queues hold in memory now (see {@link ServerConfig#outputBudgetBytes(long)}). */
    public long outputHeldBytes() {
        return limits.output.held();
    }

    /** Bytes of incoming messages buffered across all connections now (bounded by the inbound budget plus one message). */
    public long inboundBufferedBytes() {
        return limits.inbound.used();
    }

    /** What this server's connections share to stay bounded together. */
    ServerLimits limits() {
        return limits;
    }

    /** Native bytes of zlib streams held by this server's connections now. */
    public long zlibBytes() {
        return limits.zlibStreams.bytes();
    }

    /**
     * Stops reading every connection of this server: each stops before it assembles a new message
     * (in the middle of a read too), so a consumer that fell behind (the WL kernel) gets nothing more
     * until {@link #resumeReading()}, and no request head is read (upgrades wait). TCP pushes back
     * on the clients; nothing they sent is lost. Close handshakes go on, and open connections are
     * still read up to 2 KiB each, so a client that leaves is seen.
     */
    public void suspendReading() {
        switchReading(true);
    }

    /** Undoes {@link #suspendReading()}. */
    public void resumeReading() {
        switchReading(false);
    }

    private void switchReading(boolean suspend) {
        if (readingSuspended != suspend) {
            readingSuspended = suspend;
            lifecycle.loops().forEach(IoLoop::readingSwitched);
        }
    }

    /** Whether {@link #suspendReading()} is in force. */
    public boolean readingSuspended() {
        return readingSuspended;
    }

    /** Who answers HTTP requests here: upgrades and plain HTTP. */
    HttpAnswers answers() {
        return answers;
    }

    /** The URL clients connect to. */
    public String url() {
        String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
        return (config.tls() == null ? "ws://" : "wss://") + host + ":" + port() + "/";
    }

    /** Open connections, in no particular order. */
    public Collection<WebSocketConnection> connections() {
        return registry.openView();
    }

    public WebSocketConnection connection(long id) {
        return registry.get(id);
    }

    public int connectionCount() {
        return registry.openCount();
    }

    /** Sockets accepted and not yet closed, upgraded or not (handshakes, HTTP answers, lingering closes included). */
    public int socketCount() {
        return registry.liveSockets();
    }

    /** Sends one text message to every open connection, encoding it once per form (see {@code Broadcast}). Returns how many took it. */
    public int broadcastText(String text) {
        return new Broadcast(OpCode.TEXT, text.getBytes(StandardCharsets.UTF_8), frameWriter, config.compression().level())
                .sendTo(registry.open());
    }

    /** Sends one binary message to every open connection, encoding it once per form. Returns how many took it. */
    public int broadcastBinary(byte[] data) {
        return new Broadcast(OpCode.BINARY, data, frameWriter, config.compression().level()).sendTo(registry.open());
    }

    /**
     * Sends one text message to the open connections subscribed to {@code topic} (see
     * {@link WebSocketConnection#subscribe}), encoding it once per form as a broadcast does, then to
     * the {@link TopicRelay} if one is set. Safe from any thread, never blocks; slow subscribers fall
     * under the outbound limit as for any send. The cost follows the topic's subscribers, not the
     * server's connections. Returns how many connections of this server took it.
     */
    public int publish(String topic, String text) {
        return topics.publish(topic, OpCode.TEXT, text.getBytes(StandardCharsets.UTF_8), false);
    }

    /** {@link #publish(String, String)} for a binary message; {@code data} is not kept after the call. */
    public int publish(String topic, byte[] data) {
        return topics.publish(topic, OpCode.BINARY, data, false);
    }

    /** {@link #publish(String, String)} for a binary message of {@code data}'s remaining bytes (its position is not moved). */
    public int publish(String topic, java.nio.ByteBuffer data) {
        byte[] copy = new byte[data.remaining()];
        data.duplicate().get(copy);
        return publish(topic, copy);
    }

    /** Delivers to this server's subscribers only, not to the relay: for a relay's messages from other servers. */
    public int publishLocally(String topic, String text) {
        return topics.publish(topic, OpCode.TEXT, text.getBytes(StandardCharsets.UTF_8), true);
    }

    /** {@link #publishLocally(String, String)} for a binary message. */
    public int publishLocally(String topic, byte[] data) {
        return topics.publish(topic, OpCode.BINARY, data, true);
    }

    /** Passes every later {@link #publish} on to {@code relay} too (null: to nobody). */
    public void relayTopics(TopicRelay relay) {
        topics.relay(relay);
    }

    /** Topics with at least one subscriber now. */
    public int topicCount() {
        return topics.index().topicCount();
    }

    /** Subscriptions now, over all topics and connections. */
    public long subscriptionCount() {
        return topics.index().subscriptionCount();
    }

    /** Heap held by topics and subscriptions now, counted as they are made (names included). */
    public long topicMemoryBytes() {
        return topics.index().memoryBytes();
    }

    TopicIndex topicIndex() {
        return topics.index();
    }

    /**
     * Stops gracefully: open connections get a 1001 close and up to the close timeout to answer,
     * then every socket is closed and the threads end. Called on an I/O thread (from a listener),
     * it starts the stop and returns at once, since that thread must go on serving the closes.
     * A server that was never started has nothing to stop.
     */
    public void stop() {
        stop(config.closeTimeoutMillis());
    }

    /** {@link #stop()}, giving open connections {@code closeTimeoutMillis} to answer the 1001 close. */
    public void stop(long closeTimeoutMillis) {
        lifecycle.stop(closeTimeoutMillis);
    }

    /** The same as {@link #stop()}, for try-with-resources. */
    @Override
    public void close() {
        stop();
    }

    /** Whether the server is serving: started, and neither stopped nor failed. */
    public boolean isRunning() {
        return lifecycle.isRunning();
    }

    public boolean isStopped() {
        return lifecycle.isStopped();
    }

    /** Why the server stopped on its own (an I/O thread could not go on), or null. */
    public Throwable failure() {
        return lifecycle.failure();
    }

    /** Waits until the server has stopped, by {@link #stop()} or by a failure; false on timeout. */
    public boolean awaitStopped(long timeout, TimeUnit unit) throws InterruptedException {
        return lifecycle.awaitStopped(timeout, unit);
    }

    // ---- called by the I/O threads ----

    /** Where connections count themselves in once open, and out once closed. */
    ConnectionRegistry registry() {
        return registry;
    }
}
