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
 */
final class OpenCodec {

    private final FrameParser parser;
    private final MessageAssembler assembler;
    private final MessageInflater inflater;
    private final MessageEncoder encoder;
    /** Null unless binary messages are assembled in pooled direct buffers. */
    private final ConnectionBuffers buffers;
    /** Native memory reserved in the zlib budget for this connection's lifelong streams. */
    private final long zlibReserved;
    private final ZlibBudget zlib;

    /**
     * Binary messages are assembled in the loop's pooled direct buffers when the listener reads
     * buffers; the assembler asks {@code allowance} before it grows or works; inflating shares the
     * loop's step buffer, and zlib streams are counted in the server's {@link ZlibStreams}.
     */
    OpenCodec(DeflateAgreement deflate, WebSocketServer server, IoLoop loop, ListenerCalls handler, FrameWriter writer, Outbox outbox,
              ConnectionAllowance allowance, String clientAddress) {
        ServerConfig config = server.settings();
        this.zlib = server.limits().zlib;
        this.zlibReserved = deflate == null ? 0 : ZlibBudget.lifelongBytes(deflate);
        this.buffers = handler.takesBuffers() ? new ConnectionBuffers(loop.buffers().directPool) : null;
        Compression compression = config.compression();
        if (deflate == null) {
            inflater = null;
            encoder = new MessageEncoder(writer, outbox, null, compression);
            parser = new FrameParser(Role.SERVER, config.maxFramePayload());
        } else {
            inflater = new MessageInflater(deflate.clientNoContextTakeover(), config.maxInflationRatio(), loop.buffers().inflateStep, server.limits().zlibStreams,
                    server.limits().inflationPastRatio.of(clientAddress), server.limits().inflationPastRatio.server());
            MessageDeflater deflater = new MessageDeflater(compression.level(), deflate.serverNoContextTakeover(), server.limits().zlibStreams);
            encoder = new MessageEncoder(writer, outbox, deflater, compression);
            parser = new FrameParser(Role.SERVER, DeflateAgreement.frameLimit(config.maxFramePayload()), DeflateAgreement.RSV);
        }
        assembler = new MessageAssembler(handler, config.maxMessageSize(), inflater, buffers, DirectPool.MIN_BYTES, allowance);
    }

    void parse(ByteBuffer bytes) {
        parser.parse(bytes, assembler);
    }

    MessageAssembler assembler() {
        return assembler;
    }

    MessageEncoder encoder() {
        return encoder;
    }

    ConnectionBuffers buffers() {
        return buffers;
    }

    /** A timer pass: an idle connection's compressor is freed. */
    void onTimer(long now) {
        encoder.releaseIfIdle(now);
    }

    /** The connection ended: zlib memory goes back now, not when the collector finds it. */
    void release() {
        zlib.release(zlibReserved);
        assembler.release();
        if (inflater != null) {
            inflater.release();
        }
        encoder.release();
    }
}
