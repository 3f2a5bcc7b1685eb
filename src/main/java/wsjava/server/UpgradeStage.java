package wsjava.server;

import java.nio.ByteBuffer;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.Handshake;
import wsjava.protocol.HttpRequest;
import wsjava.protocol.HttpRequestParser;

/**
 * A connection before its 101: the request head's parser, then, for an upgrade the policy admits,
 * what an open connection is made of (its public face, its listener calls, its codec). Dropped once
 * the connection is open, so an open connection keeps no request parser.
 */
final class UpgradeStage {

    /** What an admitted upgrade made: the 101 to send, and the open connection's parts. */
    static final class Session {
        final byte[] response;
        final ConnectionHandle handle;
        final ListenerCalls calls;
        final OpenCodec codec;

        Session(byte[] response, ConnectionHandle handle, ListenerCalls calls, OpenCodec codec) {
            this.response = response;
            this.handle = handle;
            this.calls = calls;
            this.codec = codec;
        }
    }

    private final WebSocketServer server;
    private final HttpRequestParser parser;

    UpgradeStage(WebSocketServer server) {
        this.server = server;
        this.parser = new HttpRequestParser(server.settings().maxHeaderBytes());
    }

    /** The request once its head is complete, else null (the bytes are kept by the parser). */
    HttpRequest parse(ByteBuffer bytes) {
        return parser.parse(bytes);
    }

    /**
     * Checks the upgrade (RFC 6455, then the policy: a HandshakeException carries the refusal) and
     * makes the open connection's parts.
     */
    Session open(HttpRequest request, ServerConnection connection, IoLoop loop, FrameWriter writer, Outbox outbox,
                 ConnectionAllowance allowance) {
        Handshake.validate(request);
        String remote = ForwardedFor.clientOf(request, connection.remoteAddress(), server.limits().trustedProxies);
        AcceptedUpgrade upgrade = AcceptedUpgrade.answer(request, server.answers().admit(request, remote), server.settings(), server.answers().listener(),
                server.limits().zlib);
        ConnectionHandle handle = new ConnectionHandle(connection, request, remote, upgrade);
        ListenerCalls calls = new ListenerCalls(connection, handle, upgrade.listener);
        OpenCodec codec = new OpenCodec(upgrade.deflate, server, loop, calls, writer, outbox, allowance, HandshakeLimiter.addressOf(remote));
        handle.encodeWith(codec.encoder());
        return new Session(upgrade.response, handle, calls, codec);
    }
}
