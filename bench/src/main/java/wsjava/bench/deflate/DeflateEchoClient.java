package wsjava.bench.deflate;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import wsjava.bench.BlockingLoad;
import wsjava.bench.BlockingUpgrade;
import wsjava.protocol.FrameHeader;
import wsjava.protocol.FrameListener;
import wsjava.protocol.FrameParser;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.MessageDeflater;
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
                agreed[0] = BlockingUpgrade.upgrade(socket, port, OFFER);
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
        byte[] payload = new MessageDeflater(6, true).compress(message, 0, message.length);
        byte[] frame = new FrameWriter(Role.CLIENT, Integer.MAX_VALUE - 64, new java.util.Random(1)).frame(OpCode.TEXT, true, payload, 0, payload.length);
        frame[0] |= FrameWriter.RSV1;
        return frame;
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
