package wsjava.server;

/** Sends every text and binary message back to its sender as the same type. */
public final class EchoListener implements WebSocketListener {

    @Override
    public void onText(WebSocketConnection connection, String text) {
        connection.sendText(text);
    }

    @Override
    public void onBinary(WebSocketConnection connection, byte[] data) {
        connection.sendBinary(data);
    }
}
