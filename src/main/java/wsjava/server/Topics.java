package wsjava.server;

import java.lang.System.Logger.Level;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.OpCode;

/**
 * Publishing to topics: a message goes to the topic's subscribers only, encoded once per form as
 * a {@link Broadcast} is, then to the relay (another server's subscribers) when one is set.
 */
final class Topics {

    private final TopicIndex index;
    private final FrameWriter writer;
    private final int compressionLevel;
    private volatile TopicRelay relay;

    Topics(FrameWriter writer, int compressionLevel, long budgetBytes) {
        this.index = new TopicIndex(budgetBytes);
        this.writer = writer;
        this.compressionLevel = compressionLevel;
    }

    TopicIndex index() {
        return index;
    }

    void relay(TopicRelay value) {
        relay = value;
    }

    /** Delivers to this server's subscribers, then tells the relay unless {@code local}; returns how many took it. */
    int publish(String topic, int opcode, byte[] payload, boolean local) {
        TopicMembership.checkName(topic);
        int sent = new Broadcast(opcode, payload, writer, compressionLevel).sendTo(index.subscribers(topic));
        TopicRelay to = relay;
        if (!local && to != null) {
            try {
                to.published(topic, opcode == OpCode.TEXT, payload);
            } catch (RuntimeException e) {
                ServerLog.log(Level.WARNING, "the topic relay failed on a publish to " + topic + "; local subscribers have it", e);
            }
        }
        return sent;
    }
}
