package wsjava.server;

import java.nio.ByteBuffer;
import wsjava.protocol.DeflateAgreement;
import wsjava.protocol.FrameParser;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.MessageAssembler;
import wsjava.protocol.MessageDeflater;
import wsjava.protocol.MessageHandler;
import wsjava.protocol.MessageInflater;
import wsjava.protocol.Role;

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

    OpenCodec(DeflateAgreement deflate, ServerConfig config, MessageHandler handler, FrameWriter writer, Outbox outbox,
              ConnectionBuffers buffers) {
        this.buffers = buffers;
        Compression compression = config.compression();
        if (deflate == null) {
            inflater = null;
            encoder = new MessageEncoder(writer, outbox, null, compression);
            parser = new FrameParser(Role.SERVER, config.maxFramePayload());
        } else {
            inflater = new MessageInflater(deflate.clientNoContextTakeover());
            encoder = new MessageEncoder(writer, outbox, new MessageDeflater(compression.level(), deflate.serverNoContextTakeover()), compression);
            parser = new FrameParser(Role.SERVER, DeflateAgreement.frameLimit(config.maxFramePayload()), DeflateAgreement.RSV);
        }
        assembler = new MessageAssembler(handler, config.maxMessageSize(), inflater, buffers, DirectPool.MIN_BYTES);
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
        assembler.release();
        if (inflater != null) {
            inflater.release();
        }
        encoder.release();
    }
}
