package wsjava.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;

/**
 * TLS over a non-blocking socket with the JDK's {@link SSLEngine}. The handshake is driven by the
 * same reads and writes as application data; its slow steps (the engine's delegated tasks: key
 * exchange, signing) run on a few shared threads, taken from each client address in turn, never on
 * an I/O thread, which is told when to go on. Ciphertext is read and made in two scratch buffers of the I/O thread, shared by its
 * connections (their calls never overlap); a connection keeps its own copy only of what is left
 * over (a partial record, records the socket did not take), so an idle TLS connection holds no
 * buffer and a busy one allocates nothing per message.
 *
 * <p>Reads take at most one packet buffer of ciphertext at a time, whose plaintext always fits the
 * I/O thread's 64 KiB read buffer: nothing complete is ever left behind for a readiness event that
 * would not come.
 */
final class TlsTransport implements Transport {

    /**
     * The handshakes' slow steps, served from each client address in turn (see {@link TlsTaskQueue}),
     * on half the cores as compression is: a ClientHello flood's key exchanges leave the I/O threads
     * a core for the connections already open.
     */
    static final TlsTaskQueue TASKS = new TlsTaskQueue(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    /** TLS records gathered before one socket write. */
    private static final int RECORDS_PER_WRITE = 4;

    /** The socket under the records. */
    private final ConnectionSocket channel;
    private final SSLEngine engine;
    private final IoLoop loop;
    /** Called on the I/O thread when the handshake can go on: read again, and flush. */
    private final Runnable resume;
    /** Asks for a flush when the socket is full (the flush comes once it is writable). */
    private final Runnable needFlush;
    /** Ciphertext received and not yet unwrapped (a partial record), ready to read; or null. */
    private ByteBuffer pendingIn;
    /** Ciphertext made that the socket did not take yet, ready to write; or null. */
    private ByteBuffer pendingOut;
    private boolean taskRunning;
    private boolean handshakeDone;
    private boolean peerFinished;
    /** The last read took ciphertext from the socket. */
    private boolean tookBytes;

    TlsTransport(ConnectionSocket channel, SSLEngine engine, IoLoop loop, Runnable resume, Runnable needFlush) {
        this.channel = channel;
        this.engine = engine;
        this.loop = loop;
        this.resume = resume;
        this.needFlush = needFlush;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (peerFinished) {
            return -1;
        }
        int produced = 0;
        boolean eof = false;
        if (!driveHandshake()) {
            return 0;
        }
        int packet = engine.getSession().getPacketBufferSize();
        int held = pendingIn == null ? 0 : pendingIn.remaining();
        ByteBuffer in = loop.buffers().tlsIn(Math.max(2 * packet, held + packet));
        if (pendingIn != null) {
            in.put(pendingIn);
            pendingIn = null;
        }
        in.limit(in.position() + packet);
        int n = channel.read(in);
        tookBytes = n > 0;
        if (n < 0) {
            eof = true;
        }
        in.flip();
        while (in.hasRemaining() && !taskRunning) {
            SSLEngineResult r = engine.unwrap(in, dst);
            produced += r.bytesProduced();
            noteFinished(r);
            if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                peerFinished = true;
                break;
            }
            if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                break;     // a partial record: the rest comes with the next readiness
            }
            if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                throw new IOException("TLS record larger than the read buffer");
            }
            if (!driveHandshake() || (r.bytesConsumed() == 0 && r.bytesProduced() == 0)) {
                break;
            }
        }
        if (in.hasRemaining() && !peerFinished) {
            pendingIn = ByteBuffer.allocate(in.remaining()).put(in).flip();
        }
        if (produced > 0) {
            return produced;
        }
        return eof || peerFinished ? -1 : 0;
    }

    /** Wraps what the handshake needs and starts its tasks; false while it cannot go on now. */
    private boolean driveHandshake() throws IOException {
        while (!taskRunning) {
            HandshakeStatus status = engine.getHandshakeStatus();
            if (status != HandshakeStatus.NOT_HANDSHAKING && handshakeDone && "TLSv1.2".equals(engine.getSession().getProtocol())) {
                throw new IOException("TLS renegotiation refused");     // client-initiated: a CPU cost for nothing
            }
            if (status == HandshakeStatus.NEED_TASK) {
                startTasks();
                return false;
            }
            if (status != HandshakeStatus.NEED_WRAP) {
                return true;
            }
            if (!flushNet()) {     // what was made before goes first
                needFlush.run();
                return false;
            }
            ByteBuffer out = loop.buffers().tlsOut(RECORDS_PER_WRITE * engine.getSession().getPacketBufferSize());
            noteFinished(engine.wrap(EMPTY, out));
            if (!send(out)) {
                needFlush.run();
                return false;
            }
        }
        return false;
    }

    private void startTasks() throws IOException {
        taskRunning = true;
        List<Runnable> tasks = new ArrayList<>();
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            tasks.add(task);
        }
        if (!TASKS.submit(HandshakeLimiter.addressOf(channel.remoteAddress()), channel::isOpen, () -> runThenResume(tasks))) {
            taskRunning = false;
            throw new IOException("too many TLS handshakes from this address waiting for the handshake threads");
        }
    }

    private void runThenResume(List<Runnable> tasks) {
        try {
            if (channel.isOpen()) {      // else its handshake timed out or was pushed out while it waited
                tasks.forEach(Runnable::run);
            }
        } finally {
            loop.execute(() -> {
                taskRunning = false;
                resume.run();
            });
        }
    }

    private void noteFinished(SSLEngineResult r) {
        if (r.getHandshakeStatus() == HandshakeStatus.FINISHED) {
            handshakeDone = true;
        }
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        if (!flushNet()) {
            return 0;
        }
        if (!handshakeDone) {
            driveHandshake();
            return 0;
        }
        long consumed = 0;
        int packet = engine.getSession().getPacketBufferSize();
        while (true) {
            ByteBuffer out = loop.buffers().tlsOut(RECORDS_PER_WRITE * packet);
            while (out.remaining() >= packet) {
                SSLEngineResult r = engine.wrap(srcs, offset, length, out);
                consumed += r.bytesConsumed();
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw new IOException("TLS output is closed");
                }
                if (r.bytesConsumed() == 0) {
                    break;
                }
            }
            if (out.position() == 0 || !send(out) || !hasRemaining(srcs, offset, length) || consumed >= OutboundQueue.MAX_WRITE_BYTES) {
                return consumed;
            }
        }
    }

    private static boolean hasRemaining(ByteBuffer[] srcs, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (srcs[i].hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    /** Writes ciphertext left from an earlier write; true when none is left. */
    private boolean flushNet() throws IOException {
        if (pendingOut == null) {
            return true;
        }
        channel.write(pendingOut);
        if (pendingOut.hasRemaining()) {
            return false;
        }
        pendingOut = null;
        return true;
    }

    /** Writes ciphertext just made in the scratch buffer; keeps a copy of what the socket did not take. */
    private boolean send(ByteBuffer out) throws IOException {
        out.flip();
        channel.write(out);
        if (!out.hasRemaining()) {
            return true;
        }
        pendingOut = ByteBuffer.allocate(out.remaining()).put(out).flip();
        return false;
    }

    @Override
    public boolean flushPending() throws IOException {
        return flushNet() && (handshakeDone || driveHandshake()) && !hasPendingOutput();
    }

    @Override
    public boolean hasPendingOutput() {
        return pendingOut != null;
    }

    @Override
    public long pendingBytes() {
        return pendingOut == null ? 0 : pendingOut.remaining();
    }

    @Override
    public boolean progressed() {
        return tookBytes || taskRunning;
    }

    @Override
    public boolean ready() {
        return handshakeDone;
    }

    /** Sends close_notify (best effort: a peer that reads nothing does not get it), then FIN. */
    @Override
    public void shutdownOutput() throws IOException {
        engine.closeOutbound();
        try {
            if (flushNet()) {
                ByteBuffer out = loop.buffers().tlsOut(RECORDS_PER_WRITE * engine.getSession().getPacketBufferSize());
                engine.wrap(EMPTY, out);
                send(out);
            }
        } catch (IOException ignored) {
            // the FIN still goes out
        }
        channel.shutdownOutput();
        pendingOut = null;      // whatever of the close_notify the socket did not take can never go now: none waits
    }

    @Override
    public boolean writesThrough() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
        engine.closeOutbound();
        channel.close();
    }
}
