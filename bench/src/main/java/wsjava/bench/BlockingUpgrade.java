package wsjava.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** The opening handshake on a blocking socket, for the bench's blocking clients. */
public final class BlockingUpgrade {

    private BlockingUpgrade() {
    }

    /**
     * Upgrades {@code s} (TCP_NODELAY, a 10 s read timeout), offering {@code extensions} when not
     * null; reads the answer byte by byte, so nothing after its head is consumed. Returns the
     * Sec-WebSocket-Extensions the server agreed to ("" for none); throws unless it answered 101.
     */
    public static String upgrade(Socket s, int port, String extensions) throws IOException {
        s.setTcpNoDelay(true);
        s.setSoTimeout(10_000);
        String request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + (extensions == null ? "" : "Sec-WebSocket-Extensions: " + extensions + "\r\n") + "\r\n";
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the server closed the connection during the handshake");
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("handshake refused: " + head.toString().lines().findFirst().orElse(""));
        }
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("sec-websocket-extensions:")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "";
    }
}
