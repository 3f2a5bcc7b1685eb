package wsjava.link;

import java.io.IOException;
import java.util.Collection;
import wsjava.server.ServerConfig;
import wsjava.options.ServerOptions;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketServer;

/** A server started from WL: the server plus the event queue its handlers are fed from. */
final class LinkServer implements LinkEndpoint {

    final WebSocketServer server;
    private final EventQueue events = new EventQueue();

    private LinkServer(ServerConfig config) {
        this.server = new WebSocketServer(config, events);
    }

    static LinkServer start(String[] names, String[] values) throws IOException {
        if (names.length != values.length) {
            throw new IllegalArgumentException("option names and values differ in length");
        }
        ServerConfig config = defaults();
        ServerOptions.applyAll(config, java.util.Arrays.asList(names), java.util.Arrays.asList(values));
        LinkServer s = new LinkServer(config);
        s.server.start();
        return s;
    }

    /**
     * What a server started from WL runs with unless told otherwise, chosen so that its budgets sum
     * to well under the heap ({@link #heapAtMost}: five eighths of it with two I/O threads): the
     * message size limit below, an inbound budget of an eighth of the heap (a quarter with its
     * overdraft) and two I/O threads at most (one kernel drains the events; more threads would
     * only add per-thread copies).
     */
    static ServerConfig defaults() {
        long heap = Runtime.getRuntime().maxMemory();
        return new ServerConfig().maxMessageSize(defaultMaxMessageSize()).maxFramePayload(defaultMaxMessageSize())
                .inboundBudgetBytes(heap / 8).ioThreads(Math.min(2, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * The heap a WL server's own budgets can hold at once with {@code config} and an event queue
     * limited to {@code queueLimit}: the queue at its bound ({@link EventQueue#heldAtMost}), messages
     * in progress (the inbound budget and its overdraft: as much again, or one message), and per
     * I/O thread one message on its way into an event (a text beyond the BMP is made into its UTF-8
     * bytes and their Base64, up to three times its size, before the event holds only the last).
     */
    static long heapAtMost(ServerConfig config, long queueLimit) {
        long message = config.maxMessageSize();
        long inbound = config.inboundBudgetBytes() + Math.max(config.inboundBudgetBytes(), message);
        return EventQueue.heldAtMost(queueLimit, config.ioThreads(), config.maxMessageSize()) + inbound
                + config.ioThreads() * 3L * message;
    }

    /**
     * The message size limit a server started from WL has unless told otherwise: a 64th of the heap
     * (an event costs up to twice its size as a String, and the queue stops reading at a quarter of
     * the heap), at least 1 MiB and at most 16 MiB, the library's default.
     */
    static int defaultMaxMessageSize() {
        long sixtyFourth = Runtime.getRuntime().maxMemory() / 64;
        return (int) Math.max(1 << 20, Math.min(16 << 20, sixtyFourth));
    }

    @Override public EventQueue events() { return events; }
    @Override public WebSocketConnection connection(long id) { return server.connection(id); }
    @Override public Collection<WebSocketConnection> connections() { return server.connections(); }
    @Override public boolean isRunning() { return server.isRunning(); }
    @Override public void stop() { server.stop(); }
}
