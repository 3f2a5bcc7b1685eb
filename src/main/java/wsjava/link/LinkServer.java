package wsjava.link;

import java.io.IOException;
import wsjava.server.ServerConfig;
import wsjava.server.ServerOptions;
import wsjava.server.WebSocketServer;

/** A server started from WL: the server plus the event queue its handlers are fed from. */
final class LinkServer {

    static final long MAX_QUEUED_BYTES = 512L * 1024 * 1024;

    final WebSocketServer server;
    final EventQueue events = new EventQueue(MAX_QUEUED_BYTES);

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
}
