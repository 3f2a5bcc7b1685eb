package wsjava.cli;

import java.nio.ByteBuffer;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/**
 * The listener of {@code ./wsjava serve}: a connection to {@code /topics/NAME} is subscribed to the
 * topic NAME and each message it sends is published to it (so, with {@code --redis}, to the topic's
 * subscribers on every server); any other path echoes. Public for the attack suite, whose server
 * behaves as {@code serve --redis} does.
 */
public final class ServeListener implements WebSocketListener {

    /** The path prefix of a topic: {@code /topics/NAME}. */
    public static final String TOPICS = "/topics/";

    private final EchoListener echo = new EchoListener();

    /** The topic is found once, at the open, and attached: a connection's path is made from its stored request on each call. */
    @Override
    public void onOpen(WebSocketConnection connection) {
        String path = connection.path();
        String topic = path.startsWith(TOPICS) && path.length() > TOPICS.length() ? path.substring(TOPICS.length()) : null;
        connection.attach(topic);
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

    /** The topic a connection's path names, or null for the echo. */
    private static String topic(WebSocketConnection connection) {
        return (String) connection.attachment();
    }
}
