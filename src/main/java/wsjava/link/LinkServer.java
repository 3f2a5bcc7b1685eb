package wsjava.link;

import java.io.IOException;
import java.util.Collection;
import wsjava.server.ServerConfig;
import wsjava.server.ServerOptions;
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
        ServerConfig config = new ServerConfig().maxMessageSize(defaultMaxMessageSize()).maxFramePayload(defaultMaxMessageSize());
        ServerOptions.applyAll(config, java.util.Arrays.asList(names), java.util.Arrays.asList(values));
        LinkServer s = new LinkServer(config);
        s.server.start();
        return s;
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
