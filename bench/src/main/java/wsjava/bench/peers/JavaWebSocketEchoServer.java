package wsjava.bench.peers;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.java_websocket.WebSocket;
import org.java_websocket.handshake.ClientHandshake;
import org.java_websocket.server.WebSocketServer;

/** TooTallNate's Java-WebSocket echo server, one decoder thread per core. */
public final class JavaWebSocketEchoServer extends WebSocketServer {

    private JavaWebSocketEchoServer(int port) {
        super(new InetSocketAddress("127.0.0.1", port), Runtime.getRuntime().availableProcessors());
        setTcpNoDelay(true);
        setReuseAddr(true);
    }

    public static void main(String[] args) {
        JavaWebSocketEchoServer server = new JavaWebSocketEchoServer(Integer.parseInt(args[0]));
        server.setConnectionLostTimeout(0);
        server.start();
    }

    @Override
    public void onStart() {
        System.out.println("listening on ws://127.0.0.1:" + getPort() + "/");
    }

    @Override
    public void onOpen(WebSocket conn, ClientHandshake handshake) {
    }

    @Override
    public void onMessage(WebSocket conn, String message) {
        conn.send(message);
    }

    @Override
    public void onMessage(WebSocket conn, ByteBuffer message) {
        conn.send(message);
    }

    @Override
    public void onClose(WebSocket conn, int code, String reason, boolean remote) {
    }

    @Override
    public void onError(WebSocket conn, Exception ex) {
    }
}
