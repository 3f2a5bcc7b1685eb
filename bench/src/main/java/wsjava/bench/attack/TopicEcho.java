package wsjava.bench.attack;

import java.nio.ByteBuffer;
import wsjava.cli.EchoListener;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/**
 * The attacked server's listener when it is joined to Redis, as {@code ./wsjava serve} behaves: a
 * connection to {@code /topics/NAME} is subscribed to NAME and what it sends is published there
 * (so through Redis); any other path echoes, for the bystander.
 */
final class TopicEcho implements WebSocketListener {

    static final String TOPICS = "/topics/";

    private final EchoListener echo = new EchoListener();

    @Override
    public void onOpen(WebSocketConnection connection) {
        String topic = topic(connection);
        if (topic != null && !connection.subscribe(topic)) {
            connection.close(1008, "cannot subscribe to " + topic);
        }
    }

    @Override
    public void onText(WebSocketConnection connection, String text) {
        String topic = topic(connection);
        if (topic == null) {
            echo.onText(connection, text);
        } else {
            connection.server().publish(topic, text);
        }
    }

    @Override
    public void onBinary(WebSocketConnection connection, byte[] data) {
        String topic = topic(connection);
        if (topic == null) {
            echo.onBinary(connection, data);
        } else {
            connection.server().publish(topic, data);
        }
    }

    @Override
    public void onBinary(WebSocketConnection connection, ByteBuffer message) {
        String topic = topic(connection);
        if (topic == null) {
            echo.onBinary(connection, message);
        } else {
            connection.server().publish(topic, message);
        }
    }

    private static String topic(WebSocketConnection connection) {
        String path = connection.path();
        return path.startsWith(TOPICS) && path.length() > TOPICS.length() ? path.substring(TOPICS.length()) : null;
    }
}
