package wsjava.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/**
 * Connects to ws:// and wss:// servers with the server's codec, masking core and listener
 * interface:
 * <pre>
 *   WebSocketConnection c = WebSocketClient.connect(URI.create("wss://example.org/feed"), listener, new ClientConfig());
 *   c.sendText("subscribe");
 * </pre>
 * The listener's calls come on the connection's reader thread, one at a time, in order.
 */
public final class WebSocketClient {

    private WebSocketClient() {
    }

    /**
     * Opens a connection and completes the handshake (blocking, within the config's connect
     * timeout); the listener's {@code onOpen} has been called when this returns. Throws
     * IOException saying what went wrong: refused, timed out, TLS, or a handshake answer that
     * breaks RFC 6455.
     */
    public static WebSocketConnection connect(URI uri, WebSocketListener listener, ClientConfig config) throws IOException {
        String scheme = String.valueOf(uri.getScheme()).toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("ws") && !scheme.equals("wss")) {
            throw new IllegalArgumentException("a WebSocket URL starts with ws:// or wss://, not " + uri);
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("no host in " + uri);
        }
        boolean secure = scheme.equals("wss");
        int port = uri.getPort() >= 0 ? uri.getPort() : secure ? 443 : 80;
        Socket socket = new Socket();
        try (ConnectDeadline deadline = new ConnectDeadline(socket, config.connectTimeoutMillis())) {
            try {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(uri.getHost(), port), config.connectTimeoutMillis());
                socket.setSoTimeout(deadline.remainingMillis());
                if (secure) {
                    socket = tls(socket, uri.getHost(), port, config);
                    socket.setSoTimeout(deadline.remainingMillis());
                }
                ClientHandshake handshake = new ClientHandshake(config);
                socket.getOutputStream().write(handshake.request(uri));
                socket.getOutputStream().flush();
                InputStream in = socket.getInputStream();
                handshake.readResponse(deadline.bounded(in));
                deadline.close();
                socket.setSoTimeout(0);
                ClientConnection connection = new ClientConnection(socket, uri, config, handshake, Keepalive.around(listener, config));
                connection.start(in);
                return connection;
            } catch (IOException e) {
                socket.close();
                throw deadline.expired() ? deadline.timedOut() : e;
            } catch (RuntimeException e) {
                socket.close();
                throw e;
            }
        }
    }

    private static Socket tls(Socket plain, String host, int port, ClientConfig config) throws IOException {
        SSLContext context;
        try {
            if (config.pinnedSha256() != null) {
                context = SSLContext.getInstance("TLS");
                context.init(null, new javax.net.ssl.TrustManager[] {new PinnedCertificate(config.pinnedSha256())}, new SecureRandom());
            } else {
                context = config.tls() != null ? config.tls() : SSLContext.getDefault();
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("TLS setup failed: " + e.getMessage(), e);
        }
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true);
        SSLParameters parameters = socket.getSSLParameters();
        if (config.pinnedSha256() == null) {
            parameters.setEndpointIdentificationAlgorithm("HTTPS");     // the certificate must name the host
        }
        if (!host.matches("[0-9.]+") && !host.contains(":")) {
            parameters.setServerNames(java.util.List.of(new SNIHostName(host)));
        }
        parameters.setApplicationProtocols(new String[] {"http/1.1"});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }
}
