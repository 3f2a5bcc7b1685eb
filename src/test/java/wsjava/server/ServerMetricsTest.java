package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/** The server's counters and budgets, read as an operator's JMX tool reads them. */
@Timeout(30)
class ServerMetricsTest {

    private static long attribute(MBeanServer jmx, ObjectName name, String attribute) throws Exception {
        return ((Number) jmx.getAttribute(name, attribute)).longValue();
    }

    @Test
    void registeredOnStartCountingTrafficAndGoneOnStop() throws Exception {
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        ServerConfig config = new ServerConfig().port(0).outputBudgetBytes(32L << 20);
        WebSocketServer server = new WebSocketServer(config, new wsjava.cli.EchoListener()).start();
        ObjectName name = ServerMetrics.nameFor("127.0.0.1", server.port());
        try {
            assertTrue(jmx.isRegistered(name), name.toString());
            assertEquals(server.port(), attribute(jmx, name, "Port"));
            assertEquals(32L << 20, attribute(jmx, name, "OutputBudgetBytes"));
            assertTrue(attribute(jmx, name, "InboundBudgetBytes") > 0);
            assertTrue(attribute(jmx, name, "ZlibBudgetBytes") > 0);
            assertTrue(attribute(jmx, name, "TopicBudgetBytes") > 0);
            try (RawClient c = RawClient.open(server.port())) {
                byte[] hello = "hello".getBytes(StandardCharsets.UTF_8);
                c.send(c.writer.frame(OpCode.TEXT, true, hello, 0, hello.length));
                assertEquals("hello", new String(c.readFrame(5_000).payload(), StandardCharsets.UTF_8));
                assertEquals(1, attribute(jmx, name, "Connections"));
                assertEquals(1, attribute(jmx, name, "ConnectionsAccepted"));
                assertEquals(1, attribute(jmx, name, "MessagesIn"));
                assertEquals(1, attribute(jmx, name, "MessagesOut"));
                assertTrue(attribute(jmx, name, "BytesIn") >= hello.length);
                assertTrue(attribute(jmx, name, "BytesOut") >= hello.length);
                attribute(jmx, name, "OutputHeldBytes");
                attribute(jmx, name, "InboundBufferedBytes");
                attribute(jmx, name, "ZlibBytes");
                attribute(jmx, name, "TopicMemoryBytes");
            }
        } finally {
            server.stop();
        }
        assertFalse(jmx.isRegistered(name), "unregistered on stop");
    }
}
