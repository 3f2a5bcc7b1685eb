package wsjava.bench.peers;

import java.nio.ByteBuffer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/** Jetty 12's WebSocket echo server (core Jetty WebSocket API), with 16 MiB messages. */
public final class JettyEchoServer {

    private JettyEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long max = 16L * 1024 * 1024;
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        ContextHandler context = new ContextHandler("/");
        WebSocketUpgradeHandler ws = WebSocketUpgradeHandler.from(server, context, container -> {
            container.setMaxTextMessageSize(max);
            container.setMaxBinaryMessageSize(max);
            container.setMaxFrameSize(max);
            container.setIdleTimeout(java.time.Duration.ofMinutes(10));
            container.addMapping("/", (request, response, callback) -> new Echo());
        });
        context.setHandler(ws);
        server.setHandler(context);
        server.start();
        System.out.println("listening on ws://127.0.0.1:" + port + "/");
        server.join();
    }

    /** Echoes whole messages; auto-demanding, so Jetty reads the next one once the callback completes. */
    public static final class Echo implements Session.Listener.AutoDemanding {
        private Session session;

        @Override
        public void onWebSocketOpen(Session s) {
            this.session = s;
        }

        @Override
        public void onWebSocketText(String message) {
            session.sendText(message, Callback.NOOP);
        }

        @Override
        public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
            ByteBuffer copy = ByteBuffer.allocate(payload.remaining()).put(payload).flip();
            callback.succeed();
            session.sendBinary(copy, Callback.NOOP);
        }
    }
}
