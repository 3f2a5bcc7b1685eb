package wsjava.server;

import java.nio.ByteBuffer;
import wsjava.protocol.DeflateAgreement;
import wsjava.protocol.FrameParser;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.MessageAssembler;
import wsjava.protocol.MessageDeflater;
import wsjava.protocol.MessageInflater;
import wsjava.protocol.Role;
import wsjava.protocol.ZlibStreams;

/**
 * An open connection's codec, made at the upgrade from what was agreed: the frame parser and
 * message assembler for what arrives (inflating when permessage-deflate was agreed), the encoder
 * for what is sent, and the zlib streams and pooled buffers they hold until the connection ends.
 *
 * <p>The parser and the assembler are made at the first bytes after the upgrade and dropped by a
 * timer pass that finds them at rest for a whole pass (no bytes since the last one, between frames,
 * no message in progress, no input carried: no state to lose), so an idle connection keeps neither;
 * the next bytes make them again. The small buffer an assembler keeps between messages goes with
 * them, and out of the inbound budget: kept, it pinned both to every connection that had sent one
 * text message.
 */
final class OpenCodec {

    /** Null until the first bytes, and again once at rest. */
    private FrameParser parser;
    private MessageAssembler assembler;
    /** Bytes came since the last timer pass: a connection in use keeps its parser, assembler and buffer. */
    private boolean inUse;
    /** What the parser and assembler are made from. */
    private final ListenerCalls handler;
    private final ConnectionAllowance allowance;
    private final WebSocketServer server;
    /** Lifelong with permessage-deflate (its context outlives each message); null without. */
    private final MessageInflater inflater;
    private final MessageEncoder encoder;
    /** Null unless binary messages are assembled in pooled direct buffers. */
    private final ConnectionBuffers buffers;
    /** Native memory reserved in the zlib budget for this connection's lifelong streams. */
    private final long zlibReserved;

    /**
     * Binary messages are assembled in the loop's pooled direct buffers when the listener reads
     * buffers; the assembler asks {@code allowance} before it grows or works; inflating shares the
     * loop's step buffer, and zlib streams are counted in the server's {@link ZlibStreams}.
     */
    OpenCodec(DeflateAgreement deflate, WebSocketServer server, IoLoop loop, ListenerCalls handler, FrameWriter writer, Outbox outbox,
              ConnectionAllowance allowance, String clientAddress) {
        ServerConfig config = server.settings();
        this.server = server;
        this.handler = handler;
        this.allowance = allowance;
        this.zlibReserved = deflate == null ? 0 : ZlibBudget.lifelongBytes(deflate);
        this.buffers = handler.takesBuffers() ? new ConnectionBuffers(loop.buffers().directPool) : null;
        Compression compression = config.compression();
        if (deflate == null) {
            inflater = null;
            encoder = new MessageEncoder(writer, outbox, null, compression);
        } else {
            inflater = new MessageInflater(deflate.clientNoContextTakeover(), config.maxInflationRatio(), loop.buffers().inflateStep, server.limits().zlibStreams,
                    server.limits().inflationPastRatio.of(clientAddress), server.limits().inflationPastRatio.server());
            MessageDeflater deflater = new MessageDeflater(compression.level(), deflate.serverNoContextTakeover(), server.limits().zlibStreams);
            encoder = new MessageEncoder(writer, outbox, deflater, compression);
        }
    }

    /** Before a pass parses: makes the parser and assembler if there are none; false while the assembler may not go on (see {@link MessageAssembler#resume}). */
    boolean resume() {
        inUse = true;
        if (assembler == null) {
            ServerConfig config = server.settings();
            parser = inflater == null ? new FrameParser(Role.SERVER, config.maxFramePayload())
                    : new FrameParser(Role.SERVER, DeflateAgreement.frameLimit(config.maxFramePayload()), DeflateAgreement.RSV);
            assembler = new MessageAssembler(handler, config.maxMessageSize(), inflater, buffers, DirectPool.MIN_BYTES, allowance);
        }
        return assembler.resume();
    }

    /** Parses, after {@link #resume()} said yes. */
    void parse(ByteBuffer bytes) {
        parser.parse(bytes, assembler);
    }

    /** The assembler, or null while at rest. */
    MessageAssembler assembler() {
        return assembler;
    }

    MessageEncoder encoder() {
        return encoder;
    }

    ConnectionBuffers buffers() {
        return buffers;
    }

    /**
     * A timer pass: an idle connection's compressor is freed, and its parser and assembler once at
     * rest ({@code carrying}: input waits to be parsed, so it is not). Returns whether they were
     * dropped: the inbound budget must stop counting the buffer the assembler kept.
     */
    boolean onTimer(long now, boolean carrying) {
        encoder.releaseIfIdle(now);
        boolean used = inUse;
        inUse = false;
        if (assembler == null || used || carrying || !parser.atFrameBoundary() || assembler.messageInProgress()) {
            return false;
        }
        assembler.release();
        parser = null;
        assembler = null;
        return true;
    }

    /** The connection ended: zlib memory goes back now, not when the collector finds it. */
    void release() {
        server.limits().zlib.release(zlibReserved);
        if (assembler != null) {
            assembler.release();
        }
        if (inflater != null) {
            inflater.release();
        }
        encoder.release();
    }
}
