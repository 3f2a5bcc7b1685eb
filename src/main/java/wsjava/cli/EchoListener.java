package wsjava.cli;

import java.nio.ByteBuffer;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/** The listener of {@code ./wsjava serve}: every text and binary message goes back to its sender as the same type. */
public final class EchoListener implements WebSocketListener {

    @Override
    public void onText(WebSocketConnection connection, String text) {
        connection.sendText(text);
    }

    /** For callers that hold an array (the server itself hands this listener buffers). */
    @Override
    public void onBinary(WebSocketConnection connection, byte[] data) {
        connection.sendBinaryAsync(ByteBuffer.wrap(data));    // the array is ours: sent without a copy
    }

    /** The message as a view of the read buffer, sent on at once: copied only where the socket did not take it. */
    @Override
    public void onBinary(WebSocketConnection connection, ByteBuffer message) {
        connection.sendBinary(message);
    }
}
