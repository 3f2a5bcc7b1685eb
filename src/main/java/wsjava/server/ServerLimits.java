package wsjava.server;

import wsjava.protocol.ZlibStreams;
import wsjava.server.internal.EventRoom;

/**
 * What a server shares among all its connections to keep them bounded together: the inbound
 * budget (memory of incoming messages), the output budget (what waits to be sent), the handshake
 * limiter (sockets not yet upgraded) with the trusted proxies, the zlib streams with their budget
 * (native memory), and the listener's room for events when it keeps them. Made from the config
 * once, at construction.
 */
final class ServerLimits {

    final InboundBudget inbound;
    final OutputBudget output;
    final HandshakeLimiter handshakes;
    /** The reverse proxies whose X-Forwarded-For is believed (see {@link ForwardedFor}). */
    final java.util.Set<String> trustedProxies;
    final ZlibStreams zlibStreams = new ZlibStreams();
    final ZlibBudget zlib;
    /** What compressed messages may inflate past the ratio cap: per client address, and all of them together. */
    final InflationAllowances inflationPastRatio;
    /** The listener's room for events, or null when it has none (it handles each event when called). */
    final EventRoom events;

    ServerLimits(ServerConfig config, EventRoom events, WebSocketServer server) {
        this.events = events;
        if (events != null) {
            events.serving(server);
        }
        this.output = new OutputBudget(config.outputBudgetBytes());
        this.inbound = new InboundBudget(config.inboundBudgetBytes(), DirectPool.sizeFor(config.maxMessageSize()), output);
        this.trustedProxies = ForwardedFor.trusted(config.trustedProxies());
        this.handshakes = new HandshakeLimiter(config, trustedProxies);
        this.zlib = new ZlibBudget(config.zlibBudgetBytes(), zlibStreams);
        this.inflationPastRatio = new InflationAllowances(config.maxMessageSize());
    }
}
