package wsjava.client;

import wsjava.protocol.MessageHandler;
import wsjava.server.WebSocketListener;

/**
 * Hands a client connection's messages and events to its listener on the reader thread, each call
 * contained: a listener that throws fails only its own connection (1011). Pings are answered here.
 */
final class ClientCalls implements MessageHandler {

    private final ClientConnection connection;
    private final WebSocketListener listener;

    ClientCalls(ClientConnection connection, WebSocketListener listener) {
        this.connection = connection;
        this.listener = listener;
    }

    @Override
    public void onText(String text) {
        if (connection.receiving()) {
            try {
                listener.onText(connection, text);
            } catch (RuntimeException e) {
                connection.listenerFailed(e);
            }
        }
    }

    @Override
    public void onBinary(byte[] data) {
        if (connection.receiving()) {
            try {
                listener.onBinary(connection, data);
            } catch (RuntimeException e) {
                connection.listenerFailed(e);
            }
        }
    }

    @Override
    public void onPing(byte[] payload) {
        connection.pong(payload);
    }

    @Override
    public void onPong(byte[] payload) {
        try {
            listener.onPong(connection, payload);
        } catch (RuntimeException e) {
            connection.listenerFailed(e);
        }
    }

    @Override
    public void onClose(int code, String reason) {
        connection.serverClosed(code, reason);
    }
}
