package wsjava.server;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import wsjava.protocol.DeflateAgreement;
import wsjava.protocol.ExtensionOffer;
import wsjava.protocol.Handshake;
import wsjava.protocol.HandshakeException;
import wsjava.protocol.HttpRequest;

/**
 * An upgrade the policy admitted, answered: the 101 response, the subprotocol and extension agreed
 * on, the listener to serve it.
 */
final class AcceptedUpgrade {

    final byte[] response;
    final String subprotocol;
    final WebSocketListener listener;
    /** permessage-deflate as agreed, or null. */
    final DeflateAgreement deflate;

    private AcceptedUpgrade(byte[] response, String subprotocol, WebSocketListener listener, DeflateAgreement deflate) {
        this.response = response;
        this.subprotocol = subprotocol;
        this.listener = listener;
        this.deflate = deflate;
    }

    /** The Sec-WebSocket-Extensions value we answered, or null. */
    String extensions() {
        return deflate == null ? null : deflate.responseHeader();
    }

    /**
     * The handler's subprotocol when it chose one (a 500 if the client did not offer it: the
     * handler's bug), else the first of the server's that the client offered.
     */
    static AcceptedUpgrade answer(HttpRequest request, UpgradeDecision decision, ServerConfig config,
                                  WebSocketListener serverListener, ZlibBudget zlib) {
        List<ExtensionOffer> offers = ExtensionOffer.parse(request.headerValues("Sec-WebSocket-Extensions"));
        DeflateAgreement deflate = negotiate(offers, config.compression(), zlib);
        Map<String, String> headers = new LinkedHashMap<>(decision.headers());
        if (deflate != null) {
            headers.put("Sec-WebSocket-Extensions", deflate.responseHeader());
        }
        String chosen = decision.subprotocol();
        Handshake.HandshakeResponse response = Handshake.accept(request,
                chosen == null ? config.subprotocols() : Collections.singletonList(chosen), headers);
        if (chosen != null && response.subprotocol() == null) {
            throw new HandshakeException(500, "the upgrade handler chose subprotocol " + chosen + ", which the client did not offer");
        }
        return new AcceptedUpgrade(response.bytes(), response.subprotocol(), decision.listenerOr(serverListener), deflate);
    }

    /**
     * permessage-deflate as the offers, the settings and the zlib budget allow: context takeover
     * only while its lifelong streams fit the budget (the reservation is released with the codec),
     * else none; no compression while the streams alive are past twice the budget.
     */
    private static DeflateAgreement negotiate(List<ExtensionOffer> offers, Compression compression, ZlibBudget zlib) {
        if (!compression.enabled() || !zlib.allowsCompression()) {
            return null;
        }
        DeflateAgreement agreed = DeflateAgreement.negotiate(offers, compression.contextTakeover());
        if (agreed != null && !zlib.reserve(ZlibBudget.lifelongBytes(agreed))) {
            agreed = DeflateAgreement.negotiate(offers, false);
        }
        return agreed;
    }
}
