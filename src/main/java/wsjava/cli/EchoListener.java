package wsjava.cli;

import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/** The listener of {@code ./wsjava serve}: every text and binary message goes back to its sender as the same type. */
public final class EchoListener implements WebSocketListener {

    @Override
    public void onText(WebSocketConnection connection, String text) {
        connection.sendText(text);
    }

    @Override
    public void onBinary(WebSocketConnection connection, byte[] data) {
        connection.sendBinaryAsync(java.nio.ByteBuffer.wrap(data));    // the array is ours: sent without a copy
    }
}
