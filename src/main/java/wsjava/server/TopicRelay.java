package wsjava.server;

/**
 * Carries a server's publishes to other servers (the {@code wsjava-redis} module does it through
 * Redis pub/sub). Set with {@link WebSocketServer#relayTopics(TopicRelay)}; it hears every
 * {@link WebSocketServer#publish(String, String) publish} after the local subscribers have it, and
 * delivers what arrives from elsewhere with {@link WebSocketServer#publishLocally(String, String)},
 * which does not come back here.
 */
public interface TopicRelay {

    /**
     * A message was published on this server. Called on the publisher's thread, which may be an
     * I/O thread: hand the message on without blocking. {@code payload} (UTF-8 when {@code text})
     * is valid only during the call; copy what you keep. An exception is logged and changes nothing
     * for the local subscribers.
     */
    void published(String topic, boolean text, byte[] payload);
}
