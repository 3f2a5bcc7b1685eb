package wsjava.server;

import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * A server's counters as a JMX MBean on the platform MBeanServer, registered when the server
 * starts and unregistered when it stops. Registration failing (a name already taken) is logged
 * and does not stop the server.
 */
public final class ServerMetrics implements ServerMetricsMBean {

    private final WebSocketServer server;
    private final ServerConfig config;
    private final ObjectName name;

    private ServerMetrics(WebSocketServer server, ServerConfig config, ObjectName name) {
        this.server = server;
        this.config = config;
        this.name = name;
    }

    /** The name a server on {@code host}:{@code port} is registered under. */
    public static ObjectName nameFor(String host, int port) throws JMException {
        return new ObjectName("io.wsjava:type=WebSocketServer,host=" + ObjectName.quote(host) + ",port=" + port);
    }

    /** Registers {@code server}'s metrics; null when JMX refused (logged). */
    static ServerMetrics register(WebSocketServer server, ServerConfig config) {
        try {
            ServerMetrics metrics = new ServerMetrics(server, config, nameFor(config.host(), server.port()));
            ManagementFactory.getPlatformMBeanServer().registerMBean(metrics, metrics.name);
            return metrics;
        } catch (JMException | RuntimeException e) {
            ServerLog.log(Level.WARNING, "the server's JMX metrics are not registered: " + e, null);
            return null;
        }
    }

    /** Removes the MBean; never throws. */
    static void unregister(ServerMetrics metrics) {
        if (metrics == null) {
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(metrics.name);
        } catch (JMException | RuntimeException e) {
            ServerLog.log(Level.WARNING, "the server's JMX metrics could not be unregistered: " + e, null);
        }
    }

    @Override public int getPort() { return server.port(); }
    @Override public int getConnections() { return server.connectionCount(); }
    @Override public long getConnectionsAccepted() { return server.stats().connectionsAccepted(); }
    @Override public long getMessagesIn() { return server.stats().messagesIn(); }
    @Override public long getMessagesOut() { return server.stats().messagesOut(); }
    @Override public long getBytesIn() { return server.stats().bytesIn(); }
    @Override public long getBytesOut() { return server.stats().bytesOut(); }
    @Override public long getOutputHeldBytes() { return server.outputHeldBytes(); }
    @Override public long getOutputBudgetBytes() { return config.outputBudgetBytes(); }
    @Override public long getInboundBufferedBytes() { return server.inboundBufferedBytes(); }
    @Override public long getInboundBudgetBytes() { return config.inboundBudgetBytes(); }
    @Override public long getZlibBytes() { return server.zlibBytes(); }
    @Override public long getZlibBudgetBytes() { return config.zlibBudgetBytes(); }
    @Override public long getTopicMemoryBytes() { return server.topicMemoryBytes(); }
    @Override public long getTopicBudgetBytes() { return config.topicBudgetBytes(); }
}
