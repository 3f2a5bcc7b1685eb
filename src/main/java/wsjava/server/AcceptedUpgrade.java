package wsjava.server;

import java.util.Collections;
import java.util.List;
import wsjava.protocol.Handshake;
import wsjava.protocol.HandshakeException;
import wsjava.protocol.HttpRequest;

/** An upgrade the policy admitted, answered: the 101 response, the subprotocol agreed on, the listener to serve it. */
final class AcceptedUpgrade {

    final byte[] response;
    final String subprotocol;
    final WebSocketListener listener;

    private AcceptedUpgrade(byte[] response, String subprotocol, WebSocketListener listener) {
        this.response = response;
        this.subprotocol = subprotocol;
        this.listener = listener;
    }

    /**
     * The handler's subprotocol when it chose one (a 500 if the client did not offer it: the
     * handler's bug), else the first of the server's that the client offered.
     */
    static AcceptedUpgrade answer(HttpRequest request, UpgradeDecision decision, List<String> serverSubprotocols,
                                  WebSocketListener serverListener) {
        String chosen = decision.subprotocol();
        Handshake.HandshakeResponse response = Handshake.accept(request,
                chosen == null ? serverSubprotocols : Collections.singletonList(chosen), decision.headers());
        if (chosen != null && response.subprotocol() == null) {
            throw new HandshakeException(500, "the upgrade handler chose subprotocol " + chosen + ", which the client did not offer");
        }
        return new AcceptedUpgrade(response.bytes(), response.subprotocol(), decision.listenerOr(serverListener));
    }
}
