package wsjava.server;

import java.util.Collection;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.MessageDeflater;

/**
 * One message sent to many connections, encoded at most once per form: plain frames for every
 * connection that does not compress it, and frames compressed without context for every connection
 * that agreed to no context takeover; connections with their own compression context get the
 * plain form. Connections only read queued arrays, so one array serves them all (see
 * {@link MessageEncoder#enqueue(Broadcast)}); the forms are made on first use, on the sending
 * thread, never later: the caller may reuse its array once the call returned, even for a connection
 * where the message waits behind a compression.
 */
final class Broadcast {

    private final int opcode;
    private final byte[] payload;
    private final FrameWriter writer;
    private final int level;
    private byte[] plain;
    private byte[] compressed;

    Broadcast(int opcode, byte[] payload, FrameWriter writer, int level) {
        this.opcode = opcode;
        this.payload = payload;
        this.writer = writer;
        this.level = level;
    }

    int length() { return payload.length; }

    synchronized byte[] plainFrames() {
        if (plain == null) {
            plain = writer.message(opcode, payload, 0, payload.length);
        }
        return plain;
    }

    synchronized byte[] compressedFrames() {
        if (compressed == null) {
            byte[] deflated = new MessageDeflater(level, true).compress(payload, 0, payload.length);
            compressed = writer.message(opcode, deflated, 0, deflated.length, true);
        }
        return compressed;
    }

    /** Queues it on every open connection; returns how many took it. */
    int sendTo(Collection<ConnectionHandle> connections) {
        int sent = 0;
        for (ConnectionHandle c : connections) {
            if (c.isOpen() && c.sendBroadcast(this)) {
                sent++;
            }
        }
        return sent;
    }
}
