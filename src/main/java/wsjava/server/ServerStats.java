package wsjava.server;

import java.util.concurrent.atomic.LongAdder;

/** Counters a server keeps for its summary: messages and bytes each way, connections over its life. */
public final class ServerStats {

    final LongAdder messagesIn = new LongAdder();
    final LongAdder messagesOut = new LongAdder();
    final LongAdder bytesIn = new LongAdder();
    final LongAdder bytesOut = new LongAdder();
    final LongAdder connectionsAccepted = new LongAdder();

    public long messagesIn() { return messagesIn.sum(); }
    public long messagesOut() { return messagesOut.sum(); }
    public long bytesIn() { return bytesIn.sum(); }
    public long bytesOut() { return bytesOut.sum(); }
    public long connectionsAccepted() { return connectionsAccepted.sum(); }
}
