package wsjava.server;

/**
 * What a running server shows in JMX (jconsole, VisualVM, any JMX agent), under
 * {@code io.wsjava:type=WebSocketServer,host="H",port=P}: its connections, traffic, and how much
 * of each budget is in use. Read-only.
 */
public interface ServerMetricsMBean {

    /** The port the server listens on. */
    int getPort();

    /** Open connections now. */
    int getConnections();

    /** Connections accepted since start. */
    long getConnectionsAccepted();

    long getMessagesIn();

    long getMessagesOut();

    long getBytesIn();

    long getBytesOut();

    /** Unsent output all connections hold now, and the budget it is held against. */
    long getOutputHeldBytes();

    long getOutputBudgetBytes();

    /** Incoming message bytes buffered now, and the budget. */
    long getInboundBufferedBytes();

    long getInboundBudgetBytes();

    /** Native memory of zlib streams now, and the budget. */
    long getZlibBytes();

    long getZlibBudgetBytes();

    /** Heap held by topics and subscriptions now, and the budget. */
    long getTopicMemoryBytes();

    long getTopicBudgetBytes();
}
