package wsjava.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import wsjava.protocol.FrameHeader;
import wsjava.protocol.FrameListener;
import wsjava.protocol.FrameParser;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;

/**
 * A closed-loop load client on one NIO thread: each connection keeps exactly one message in flight,
 * sends the next as soon as the echo is back, and checks every echo byte for byte. Frames are
 * masked once, in advance, so the client spends its time on I/O, not on masking.
 */
public final class EchoLoadClient {

    /** What one run measured. */
    public static final class Result {
        public final long messages;
        public final double seconds;
        public final long[] latencies;
        public final long verifiedBytes;
        /** Connections whose message was still unanswered after {@link #STALL_SECONDS} when the run ended. */
        public final int stalledConnections;

        Result(long messages, double seconds, long[] latencies, long verifiedBytes, int stalledConnections) {
            this.messages = messages;
            this.seconds = seconds;
            this.latencies = latencies;
            this.verifiedBytes = verifiedBytes;
            this.stalledConnections = stalledConnections;
        }

        public double messagesPerSecond() {
            return messages / seconds;
        }

        /** The p-th percentile (0-100) of round-trip latency in microseconds. */
        public double percentileMicros(double p) {
            if (latencies.length == 0) {
                return Double.NaN;
            }
            int index = (int) Math.min(latencies.length - 1, Math.ceil(p / 100.0 * latencies.length) - 1);
            return latencies[Math.max(0, index)] / 1_000.0;
        }
    }

    static final double STALL_SECONDS = 2.0;

    private EchoLoadClient() {
    }

    /** Opens a connection and completes the handshake (blocking), then leaves it non-blocking. */
    public static SocketChannel connect(int port) throws IOException {
        return connect(port, "/");
    }

    /** {@link #connect(int)} to a path (and query) of the server. */
    public static SocketChannel connect(int port, String path) throws IOException {
        SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
        channel.socket().setTcpNoDelay(true);
        String request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
        ByteBuffer out = ByteBuffer.wrap(request.getBytes(StandardCharsets.ISO_8859_1));
        while (out.hasRemaining()) {
            channel.write(out);
        }
        ByteBuffer in = ByteBuffer.allocate(4096);
        while (true) {
            if (channel.read(in) < 0) {
                throw new IOException("server closed during the handshake");
            }
            String head = new String(in.array(), 0, in.position(), StandardCharsets.ISO_8859_1);
            if (head.contains("\r\n\r\n")) {
                if (!head.startsWith("HTTP/1.1 101")) {
                    throw new IOException("handshake refused: " + head.lines().findFirst().orElse(""));
                }
                break;
            }
        }
        channel.configureBlocking(false);
        return channel;
    }

    /** One connection's state: the frame to send, the echo being received, when it was sent. */
    private static final class Conn implements FrameListener {
        final SocketChannel channel;
        final FrameParser parser = new FrameParser(Role.CLIENT, Integer.MAX_VALUE - 64);
        final byte[] frame;
        final byte[] expected;
        final byte[] received;
        ByteBuffer pending;
        int receivedSize;
        long sentAt;
        boolean complete;
        String mismatch;

        Conn(SocketChannel channel, byte[] frame, byte[] expected) {
            this.channel = channel;
            this.frame = frame;
            this.expected = expected;
            this.received = new byte[expected.length];
        }

        @Override
        public void onFrameStart(FrameHeader h) {
            if (h.opcode() == OpCode.BINARY) {
                receivedSize = 0;
            } else if (h.opcode() != OpCode.CONTINUATION) {
                mismatch = "unexpected " + OpCode.name(h.opcode()) + " frame";
            }
        }

        @Override
        public void onFramePayload(byte[] buf, int off, int len) {
            if (receivedSize + len > received.length) {
                mismatch = "echo longer than the message";
                return;
            }
            System.arraycopy(buf, off, received, receivedSize, len);
            receivedSize += len;
        }

        @Override
        public void onFrameEnd() {
            if (receivedSize == expected.length) {
                complete = true;
            }
        }
    }

    /**
     * Runs the closed loop over {@code connections} connections with {@code size}-byte binary
     * messages: {@code warmupSeconds} unmeasured, then {@code measureSeconds} measured (or until
     * {@code maxMessages} are measured). Fails on the first wrong echo.
     */
    public static Result run(int port, int connections, int size, double warmupSeconds, double measureSeconds,
                             long maxMessages, Progress progress) throws IOException {
        Random random = new Random(size * 31L + connections);
        FrameWriter writer = new FrameWriter(Role.CLIENT, Integer.MAX_VALUE - 64, random);
        List<Conn> conns = new ArrayList<>();
        Selector selector = Selector.open();
        try {
            for (int i = 0; i < connections; i++) {
                byte[] payload = new byte[size];
                random.nextBytes(payload);
                Conn c = new Conn(connect(port), writer.binary(payload), payload);
                c.channel.register(selector, SelectionKey.OP_READ, c);
                conns.add(c);
            }
            ByteBuffer readBuffer = ByteBuffer.allocate(256 * 1024);
            long[] latencies = new long[1 << 16];
            int latencyCount = 0;
            long measured = 0;
            long verifiedBytes = 0;
            long start = System.nanoTime();
            long measureFrom = start + (long) (warmupSeconds * 1e9);
            long measureUntil = measureFrom + (long) (measureSeconds * 1e9);
            for (Conn c : conns) {
                send(c, selector);
            }
            long now = start;
            while (now < measureUntil && measured < maxMessages) {
                selector.select(100);
                now = System.nanoTime();
                for (SelectionKey key : selector.selectedKeys()) {
                    Conn c = (Conn) key.attachment();
                    if (key.isValid() && key.isWritable()) {
                        writePending(c, key);
                    }
                    if (!key.isValid() || !key.isReadable()) {
                        continue;
                    }
                    readBuffer.clear();
                    int n = c.channel.read(readBuffer);
                    if (n < 0) {
                        throw new IOException("server closed a connection mid-run");
                    }
                    readBuffer.flip();
                    c.parser.parse(readBuffer, c);
                    if (c.mismatch != null) {
                        throw new IOException("bad echo: " + c.mismatch);
                    }
                    if (c.complete) {
                        c.complete = false;
                        if (!Arrays.equals(c.received, 0, c.receivedSize, c.expected, 0, c.expected.length)) {
                            throw new IOException("echo differs from what was sent (" + size + " bytes)");
                        }
                        long done = System.nanoTime();
                        if (c.sentAt >= measureFrom && done <= measureUntil) {
                            if (latencyCount == latencies.length) {
                                latencies = Arrays.copyOf(latencies, latencies.length * 2);
                            }
                            latencies[latencyCount++] = done - c.sentAt;
                            measured++;
                            verifiedBytes += size;
                        }
                        if (progress != null) {
                            progress.advance(1);
                        }
                        send(c, selector);
                    }
                }
                selector.selectedKeys().clear();
            }
            long[] sorted = Arrays.copyOf(latencies, latencyCount);
            Arrays.sort(sorted);
            double seconds = Math.min(now, measureUntil) - measureFrom;
            long stallLimit = now - (long) (STALL_SECONDS * 1e9);
            int stalled = (int) conns.stream().filter(c -> c.sentAt < stallLimit).count();
            return new Result(measured, Math.max(seconds, 1) / 1e9, sorted, verifiedBytes, stalled);
        } finally {
            for (Conn c : conns) {
                c.channel.close();
            }
            selector.close();
        }
    }

    private static void send(Conn c, Selector selector) throws IOException {
        c.sentAt = System.nanoTime();
        c.pending = ByteBuffer.wrap(c.frame);
        c.channel.write(c.pending);
        if (c.pending.hasRemaining()) {
            c.channel.keyFor(selector).interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    private static void writePending(Conn c, SelectionKey key) throws IOException {
        c.channel.write(c.pending);
        if (!c.pending.hasRemaining()) {
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    /** Round trips of one large message on one connection; returns each round trip's milliseconds. */
    public static double[] largeRoundTrips(int port, int size, int count) throws IOException {
        Result r = run(port, 1, size, 0, 600, count, null);
        double[] ms = new double[r.latencies.length];
        for (int i = 0; i < ms.length; i++) {
            ms[i] = r.latencies[i] / 1e6;
        }
        return ms;
    }
}
