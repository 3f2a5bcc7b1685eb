package wsjava.bench.deflate;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import wsjava.bench.BlockingLoad;
import wsjava.protocol.FrameHeader;
import wsjava.protocol.FrameListener;
import wsjava.protocol.FrameParser;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;

/**
 * A closed-loop compressed echo client, one blocking thread per connection. It offers
 * {@code permessage-deflate; client_no_context_takeover}, so each message can be compressed and
 * masked once and sent again and again (the load client stays cheap); the server keeps its own
 * context, so the client inflates every echo, checks it against the message, and counts the bytes
 * on the wire both ways. Each connection cycles through {@link #VARIANTS} different messages, so
 * the server cannot compress an echo into a reference to the one before (a 32 KiB window would
 * otherwise make small repeated messages nearly free).
 */
final class DeflateEchoClient {

    static final String OFFER = "permessage-deflate; client_no_context_takeover";
    static final int VARIANTS = 8;
    private static final byte[] TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

    private DeflateEchoClient() {
    }

    /** Runs the loop; also gives what the server agreed to (in {@code agreed[0]}). */
    static BlockingLoad.Result run(int port, int connections, byte[][] messages, double warmupSeconds, double measureSeconds,
                                   String[] agreed) throws Exception {
        byte[][] frames = new byte[messages.length][];
        for (int v = 0; v < messages.length; v++) {
            frames[v] = compressedFrame(messages[v]);
        }
        List<Socket> sockets = new ArrayList<>();
        List<BlockingLoad.RoundTrip> trips = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                Socket socket = new Socket("127.0.0.1", port);
                sockets.add(socket);
                agreed[0] = handshake(socket, port);
                trips.add(roundTrip(socket, frames, messages, i, !agreed[0].contains("server_no_context_takeover")));
            }
        } catch (IOException e) {
            for (Socket s : sockets) {
                s.close();
            }
            throw e;
        }
        return BlockingLoad.run(sockets, trips, warmupSeconds, measureSeconds);
    }

    /** Masked frame of the message compressed on its own (no context: the same bytes serve every send). */
    static byte[] compressedFrame(byte[] message) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        deflater.setInput(message);
        ByteArrayOutputStream z = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        int n;
        do {
            n = deflater.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
            z.write(buf, 0, n);
        } while (n == buf.length);
        deflater.end();
        byte[] payload = Arrays.copyOf(z.toByteArray(), z.size() - 4);
        byte[] frame = new FrameWriter(Role.CLIENT, Integer.MAX_VALUE - 64, new java.util.Random(1)).frame(OpCode.TEXT, true, payload, 0, payload.length);
        frame[0] |= FrameWriter.RSV1;
        return frame;
    }

    /** Upgrades with the offer; returns what the server agreed to (empty when it declined). */
    static String handshake(Socket socket, int port) throws IOException {
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(10_000);
        String request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: " + OFFER + "\r\n\r\n";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("server closed during the handshake");
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("handshake refused: " + head.toString().lines().findFirst().orElse(""));
        }
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("sec-websocket-extensions:")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "";
    }

    /** Cycles through the messages from {@code first}; each echo is inflated and compared. */
    private static BlockingLoad.RoundTrip roundTrip(Socket socket, byte[][] frames, byte[][] messages, int first, boolean keepContext)
            throws IOException {
        Echo echo = new Echo(keepContext);
        FrameParser parser = new FrameParser(Role.CLIENT, Integer.MAX_VALUE - 64, 4);
        byte[] buf = new byte[256 * 1024];
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        int[] sent = {first};
        return () -> {
            byte[] frame = frames[sent[0] % frames.length];
            byte[] message = messages[sent[0]++ % messages.length];
            out.write(frame);
            long read = 0;
            while (!echo.done) {
                int n = in.read(buf);
                if (n < 0) {
                    throw new IOException("server closed the connection");
                }
                read += n;
                parser.parse(ByteBuffer.wrap(buf, 0, n), echo);
            }
            boolean same = Arrays.equals(message, echo.message());
            echo.reset();
            return same ? frame.length + read : -(frame.length + read);
        };
    }

    /** Collects one echo, inflating it when it came compressed. */
    private static final class Echo implements FrameListener {
        private final Inflater inflater = new Inflater(true);
        private final boolean keepContext;
        private final ByteArrayOutputStream payload = new ByteArrayOutputStream();
        private boolean compressed;
        private boolean first = true;
        private FrameHeader header;
        boolean done;

        Echo(boolean keepContext) {
            this.keepContext = keepContext;
        }

        @Override
        public void onFrameStart(FrameHeader h) {
            header = h;
            if (first && !OpCode.isControl(h.opcode())) {
                compressed = (h.rsv() & 4) != 0;
                first = false;
            }
        }

        @Override
        public void onFramePayload(byte[] b, int off, int len) {
            if (!OpCode.isControl(header.opcode())) {
                payload.write(b, off, len);
            }
        }

        @Override
        public void onFrameEnd() {
            if (!OpCode.isControl(header.opcode()) && header.fin()) {
                done = true;
            }
        }

        byte[] message() throws DataFormatException {
            if (!compressed) {
                return payload.toByteArray();
            }
            payload.write(TAIL, 0, TAIL.length);
            inflater.setInput(payload.toByteArray());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[65536];
            int n;
            while ((n = inflater.inflate(chunk)) > 0) {
                out.write(chunk, 0, n);
            }
            if (!keepContext) {
                inflater.reset();
            }
            return out.toByteArray();
        }

        void reset() {
            payload.reset();
            first = true;
            done = false;
        }
    }
}
