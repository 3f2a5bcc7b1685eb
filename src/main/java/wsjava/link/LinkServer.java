package wsjava.link;

import java.io.IOException;
import java.util.Collection;
import wsjava.server.ServerConfig;
import wsjava.server.ServerOptions;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketServer;

/** A server started from WL: the server plus the event queue its handlers are fed from. */
final class LinkServer implements LinkEndpoint {

    static final long MAX_QUEUED_BYTES = 512L * 1024 * 1024;

    final WebSocketServer server;
    private final EventQueue events = new EventQueue(MAX_QUEUED_BYTES);

    private LinkServer(ServerConfig config) {
        this.server = new WebSocketServer(config, events);
    }

    static LinkServer start(String[] names, String[] values) throws IOException {
        if (names.length != values.length) {
            throw new IllegalArgumentException("option names and values differ in length");
        }
        ServerConfig config = new ServerConfig();
        ServerOptions.applyAll(config, java.util.Arrays.asList(names), java.util.Arrays.asList(values));
        LinkServer s = new LinkServer(config);
        s.server.start();
        return s;
    }

    @Override public EventQueue events() { return events; }
    @Override public WebSocketConnection connection(long id) { return server.connection(id); }
    @Override public Collection<WebSocketConnection> connections() { return server.connections(); }
    @Override public boolean isRunning() { return server.isRunning(); }
    @Override public void stop() { server.stop(); }
}
