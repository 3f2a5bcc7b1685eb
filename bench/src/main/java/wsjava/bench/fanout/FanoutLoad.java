package wsjava.bench.fanout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import wsjava.bench.EchoLoadClient;
import wsjava.protocol.FrameHeader;
import wsjava.protocol.FrameListener;
import wsjava.protocol.FrameParser;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;

/**
 * The fan-out load client, one NIO thread: subscribers spread evenly over the servers and topics,
 * and a publishing connection per server. It keeps {@code window} publishes in flight (each
 * through the next server in turn, to the next topic), and a publish is done once every
 * subscriber of its topic, on every server, has it; then the next one goes. Each message carries
 * its number and send time, so every delivery is checked (right topic, once) and timed.
 */
final class FanoutLoad {

    /** Payload: publish number (8 bytes), send time in nanoseconds (8), topic (4), then padding. */
    static final int HEADER = 20;
    private static final int RING = 1 << 16;

    /** What one run measured inside its window. */
    static final class Result {
        long deliveries;
        long publishes;
        double seconds;
        long[] latencies = new long[0];
        long wrong;
        long incomplete;

        double percentileMicros(double p) {
            if (latencies.length == 0) {
                return Double.NaN;
            }
            int index = (int) Math.min(latencies.length - 1, Math.ceil(p / 100.0 * latencies.length) - 1);
            return latencies[Math.max(0, index)] / 1_000.0;
        }
    }

    /** A connection: collects each message's bytes and hands every whole one to {@link #delivered}. */
    private final class Conn implements FrameListener {
        final SocketChannel channel;
        final int topic;
        final FrameParser parser = new FrameParser(Role.CLIENT, 1 << 20);
        final byte[] message = new byte[1 << 16];
        int length;
        boolean binary;
        boolean fin;
        ByteBuffer pending;

        Conn(SocketChannel channel, int topic) {
            this.channel = channel;
            this.topic = topic;
        }

        @Override public void onFrameStart(FrameHeader h) {
            fin = h.fin();
            if (h.opcode() != OpCode.CONTINUATION) {
                length = 0;
                binary = h.opcode() == OpCode.BINARY;
            }
        }

        @Override public void onFramePayload(byte[] buf, int off, int len) {
            int n = Math.min(len, message.length - length);
            System.arraycopy(buf, off, message, length, n);
            length += n;
        }

        @Override public void onFrameEnd() {
            if (fin) {
                delivered(this);
            }
        }
    }

    /** Calls at the start and the end of the measured window (to read CPU counters there). */
    interface Window {
        void opened();

        void closed();
    }

    private final List<Integer> ports;
    private final int subscribers;
    private final int topics;
    private final int size;
    private final int window;
    private final FrameWriter writer = new FrameWriter(Role.CLIENT, 1 << 20, new Random(7));
    private final long[] sentAt = new long[RING];
    private final int[] remaining = new int[RING];
    private final List<Conn> publishers = new ArrayList<>();
    private int[] perTopic;
    private long nextPublish;
    private Selector selector;
    private Result result;
    private long[] latencies = new long[1 << 18];
    private int count;
    private long from;
    private long until;
    private IOException failure;

    FanoutLoad(List<Integer> ports, int subscribers, int topics, int size, int window) {
        this.ports = ports;
        this.subscribers = subscribers;
        this.topics = topics;
        this.size = Math.max(size, HEADER);
        this.window = window;
    }

    Result run(double warmupSeconds, double measureSeconds, Window cpu) throws IOException {
        selector = Selector.open();
        List<Conn> all = new ArrayList<>();
        perTopic = new int[topics];
        try {
            for (int i = 0; i < subscribers; i++) {
                int topic = (i / ports.size()) % topics;      // each topic's subscribers spread over every server
                Conn c = new Conn(EchoLoadClient.connect(ports.get(i % ports.size()), "/?topic=t" + topic), topic);
                c.channel.register(selector, SelectionKey.OP_READ, c);
                all.add(c);
                perTopic[topic]++;
            }
            for (int port : ports) {
                Conn p = new Conn(EchoLoadClient.connect(port, "/"), -1);
                p.channel.register(selector, SelectionKey.OP_READ, p);
                publishers.add(p);
            }
            // No wait needed: a server subscribes a connection in onOpen, before its 101 is written.
            return loop(warmupSeconds, measureSeconds, cpu);
        } finally {
            for (Conn c : all) {
                c.channel.close();
            }
            for (Conn p : publishers) {
                p.channel.close();
            }
            selector.close();
        }
    }

    private Result loop(double warmupSeconds, double measureSeconds, Window cpu) throws IOException {
        result = new Result();
        ByteBuffer read = ByteBuffer.allocate(256 * 1024);
        long start = System.nanoTime();
        from = start + (long) (warmupSeconds * 1e9);
        until = from + (long) (measureSeconds * 1e9);
        boolean opened = false;
        for (int i = 0; i < window; i++) {
            publish();
        }
        long now = start;
        while (now < until) {
            selector.select(50);
            now = System.nanoTime();
            if (!opened && now >= from) {
                opened = true;
                cpu.opened();
            }
            for (SelectionKey key : selector.selectedKeys()) {
                Conn c = (Conn) key.attachment();
                if (key.isValid() && key.isWritable()) {
                    flushPending(c, key);
                }
                if (!key.isValid() || !key.isReadable()) {
                    continue;
                }
                read.clear();
                if (c.channel.read(read) < 0) {
                    throw new IOException("a server closed a connection mid-run");
                }
                read.flip();
                c.parser.parse(read, c);
                if (failure != null) {
                    throw failure;
                }
            }
            selector.selectedKeys().clear();
        }
        cpu.closed();
        result.seconds = measureSeconds;
        for (long seq = Math.max(0, nextPublish - RING); seq < nextPublish; seq++) {
            if (remaining[(int) (seq & (RING - 1))] > 0 && now - sentAt[(int) (seq & (RING - 1))] > 2_000_000_000L) {
                result.incomplete++;      // older than 2 s and still not everywhere: lost on the way
            }
        }
        result.latencies = Arrays.copyOf(latencies, count);
        Arrays.sort(result.latencies);
        return result;
    }

    /** A whole message on {@code c}: checked (type, size, topic, not seen too often), timed, and the next publish sent when it is everywhere. */
    private void delivered(Conn c) {
        long now = System.nanoTime();
        ByteBuffer m = ByteBuffer.wrap(c.message, 0, c.length);
        int slot = (int) (m.getLong(0) & (RING - 1));
        if (!c.binary || c.length != size || m.getInt(16) != c.topic || remaining[slot] <= 0) {
            result.wrong++;
            return;
        }
        boolean measured = now >= from && now < until;
        if (measured) {
            result.deliveries++;
            if (count == latencies.length) {
                latencies = Arrays.copyOf(latencies, count * 2);
            }
            latencies[count++] = now - m.getLong(8);
        }
        if (--remaining[slot] == 0) {
            if (measured) {
                result.publishes++;
            }
            try {
                publish();
            } catch (IOException e) {
                failure = e;
            }
        }
    }

    /** Sends the next publish through the next server, to the next topic. */
    private void publish() throws IOException {
        long seq = nextPublish++;
        int topic = (int) (seq % topics);
        int slot = (int) (seq & (RING - 1));
        remaining[slot] = perTopic[topic];
        sentAt[slot] = System.nanoTime();
        ByteBuffer payload = ByteBuffer.allocate(2 + size);
        payload.putShort((short) topic).putLong(seq).putLong(sentAt[slot]).putInt(topic);
        Conn p = publishers.get((int) (seq % publishers.size()));
        ByteBuffer frame = ByteBuffer.wrap(writer.binary(payload.array()));
        if (p.pending == null) {
            p.channel.write(frame);
        }
        if (frame.hasRemaining()) {
            p.pending = p.pending == null ? frame : concat(p.pending, frame);
            p.channel.keyFor(selector).interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    private static void flushPending(Conn c, SelectionKey key) throws IOException {
        if (c.pending != null) {
            c.channel.write(c.pending);
            if (!c.pending.hasRemaining()) {
                c.pending = null;
                key.interestOps(SelectionKey.OP_READ);
            }
        }
    }

    private static ByteBuffer concat(ByteBuffer a, ByteBuffer b) {
        ByteBuffer out = ByteBuffer.allocate(a.remaining() + b.remaining());
        out.put(a).put(b).flip();
        return out;
    }
}
