package wsjava.testing;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import wsjava.protocol.Frame;
import wsjava.protocol.FrameCollector;
import wsjava.protocol.FrameParser;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.Handshake;
import wsjava.protocol.Role;

/**
 * A deliberately low-level WebSocket server for client tests, RawClient's mirror: it answers one
 * upgrade with whatever response a test builds (right or wrong), sends whatever bytes the test
 * wants, and reads the client's frames with the project's parser in the server role, which also
 * rejects any unmasked client frame.
 */
public final class RawServer implements Closeable {

    private final ServerSocket listening = new ServerSocket(0);
    private final CompletableFuture<Socket> accepted = new CompletableFuture<>();
    private Socket socket;
    private final FrameParser parser = new FrameParser(Role.SERVER, Integer.MAX_VALUE - 64);
    private final FrameCollector collector = new FrameCollector();
    private final ArrayDeque<Frame> ready = new ArrayDeque<>();
    public final FrameWriter writer = new FrameWriter(Role.SERVER, Integer.MAX_VALUE - 64);
    public String requestHead;

    /** The right answer to a request with this key. */
    public static String goodResponse(String key) {
        return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "
                + Handshake.acceptKey(key) + "\r\n\r\n";
    }

    /** Listens on a free port; the first connection gets {@code response} (given the client's key) to its upgrade. */
    public RawServer(Function<String, String> response) throws IOException {
        Thread t = new Thread(() -> {
            try {
                Socket s = listening.accept();
                s.setSoTimeout(30_000);
                InputStream in = s.getInputStream();
                ByteArrayOutputStream head = new ByteArrayOutputStream();
                while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                    int b = in.read();
                    if (b < 0) {
                        throw new IOException("client closed during its request");
                    }
                    head.write(b);
                }
                requestHead = head.toString(StandardCharsets.ISO_8859_1);
                String key = "";
                for (String line : requestHead.split("\r\n")) {
                    if (line.toLowerCase(Locale.ROOT).startsWith("sec-websocket-key:")) {
                        key = line.substring(line.indexOf(':') + 1).trim();
                    }
                }
                s.getOutputStream().write(response.apply(key).getBytes(StandardCharsets.ISO_8859_1));
                accepted.complete(s);
            } catch (IOException e) {
                accepted.completeExceptionally(e);
            }
        }, "raw-server");
        t.setDaemon(true);
        t.start();
    }

    public int port() {
        return listening.getLocalPort();
    }

    private Socket socket() throws IOException {
        if (socket == null) {
            try {
                socket = accepted.get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IOException("no client connected", e);
            }
        }
        return socket;
    }

    public void send(byte[] bytes) throws IOException {
        socket().getOutputStream().write(bytes);
        socket().getOutputStream().flush();
    }

    /** The client's next frame, or null when it closed TCP. */
    public Frame readFrame() throws IOException {
        byte[] buffer = new byte[65536];
        while (ready.isEmpty()) {
            int n = socket().getInputStream().read(buffer);
            if (n < 0) {
                return null;
            }
            parser.parse(ByteBuffer.wrap(buffer, 0, n), collector);
            ready.addAll(collector.drain());
        }
        return ready.poll();
    }

    @Override
    public void close() throws IOException {
        listening.close();
        if (socket != null) {
            socket.close();
        }
    }
}
