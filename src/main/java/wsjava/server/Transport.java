package wsjava.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * How a connection's bytes reach its socket: as they are (the {@link ConnectionSocket} itself) or
 * through TLS ({@link TlsTransport}). Non-blocking like the socket under it: a read or write may move nothing.
 */
interface Transport extends GatheringByteChannel {

    /** Application bytes into {@code dst}: 0 when none are ready, -1 once the peer has finished. */
    int read(ByteBuffer dst) throws IOException;

    @Override
    default long write(ByteBuffer[] srcs) throws IOException {
        return write(srcs, 0, srcs.length);
    }

    @Override
    default int write(ByteBuffer src) throws IOException {
        return (int) write(new ByteBuffer[] {src}, 0, 1);
    }

    /** Writes bytes accepted earlier and still pending (TLS records, handshake messages); true when none are left. */
    boolean flushPending() throws IOException;

    /** Bytes accepted for output but not yet taken by the socket (TLS records); the connection must not end before. */
    boolean hasPendingOutput();

    /** How many such bytes wait ({@link #hasPendingOutput()}): the socket taking some is progress too. */
    default long pendingBytes() {
        return 0;
    }

    /**
     * Whether a write keeps nothing inside the transport, so what the socket did not take is still
     * in the caller's buffers: true for plain TCP; TLS holds records until a flush writes them.
     */
    boolean writesThrough();

    /**
     * Whether the last read moved the handshake on without application bytes (TLS records taken, or
     * its tasks still running: no fault of the peer's); plain TCP has no such bytes.
     */
    default boolean progressed() {
        return false;
    }

    /** Whether application data can flow yet (TLS: the handshake is done). */
    boolean ready();

    /** Ends our output (TLS: close_notify first), keeping input open for a lingering close. */
    void shutdownOutput() throws IOException;

    /**
     * The transport for a freshly accepted socket: TLS when the config has an SSLContext (TLS 1.2
     * and 1.3, ALPN http/1.1), plain otherwise. {@code resume} re-drives a TLS handshake after its
     * tasks; {@code needFlush} asks for a flush once the socket is writable.
     */
    static Transport open(ConnectionSocket socket, ServerConfig config, IoLoop loop, Runnable resume, Runnable needFlush) {
        if (config.tls() == null) {
            return socket;
        }
        SSLEngine engine = config.tls().createSSLEngine();
        engine.setUseClientMode(false);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
        parameters.setCipherSuites(aeadOnly(engine.getEnabledCipherSuites()));
        parameters.setApplicationProtocols(new String[] {"http/1.1"});
        engine.setSSLParameters(parameters);
        return new TlsTransport(socket, engine, loop, resume, needFlush);
    }

    /**
     * The enabled suites without CBC and SHA-1 ones: AEAD only (GCM, ChaCha20-Poly1305), as in
     * Mozilla's intermediate profile; the renegotiation signal stays.
     */
    static String[] aeadOnly(String[] suites) {
        return java.util.Arrays.stream(suites)
                .filter(s -> s.contains("_GCM_") || s.contains("_CHACHA20_POLY1305") || s.equals("TLS_EMPTY_RENEGOTIATION_INFO_SCSV"))
                .toArray(String[]::new);
    }
}
