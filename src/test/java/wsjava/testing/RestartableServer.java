package wsjava.testing;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;

/**
 * A WSJava server a test stops and starts again on the same port, as a feed's server restarts.
 * It records every text it receives, in order, as "generation:text" (the generation counts
 * starts), and echoes nothing unless asked.
 */
public final class RestartableServer implements AutoCloseable {

    public final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    public final List<WebSocketConnection> opened = new CopyOnWriteArrayList<>();
    private final ServerConfig config;
    private volatile WebSocketServer server;
    private volatile int generation;
    private int port;

    public RestartableServer(ServerConfig config) {
        this.config = config;
    }

    public RestartableServer start() throws IOException {
        generation++;
        int g = generation;
        WebSocketServer s = new WebSocketServer(config.copy().port(port), new WebSocketListener() {
            @Override public void onOpen(WebSocketConnection c) { opened.add(c); }
            @Override public void onText(WebSocketConnection c, String text) { received.add(g + ":" + text); }
        }).start();
        port = s.port();
        server = s;
        return this;
    }

    /** Stops gracefully: open connections get 1001. */
    public void stop() {
        server.stop();
    }

    public WebSocketServer server() {
        return server;
    }

    public int port() {
        return port;
    }

    public String url() {
        return "ws://127.0.0.1:" + port + "/";
    }

    /** The next text received, or an AssertionError after 20 s. */
    public String next() throws InterruptedException {
        String s = received.poll(20, TimeUnit.SECONDS);
        if (s == null) {
            throw new AssertionError("the server received nothing within 20 s");
        }
        return s;
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop();
        }
    }
}
