package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * Adversarial review after issue 20: 3,000 connections each holding a 30 KB partial message took
 * the heap to three times the inbound budget, since every connection refused room kept (and was
 * counted for) a whole read of up to 32 KiB. Near the limit, reads are now a couple of KiB.
 */
@Timeout(120)
class ManyPartialMessagesTest {

    private static final long BUDGET = 1 << 20;
    private static final int CLAIMED = 64 * 1024;
    private static final int SENT = 30_000;
    private static final int CONNECTIONS = 300;

    @Test
    void manyConnectionsWithPartialMessagesHoldLittleMoreThanTheBudget() throws Exception {
        ServerConfig config = new ServerConfig().port(0).maxMessageSize(CLAIMED).maxFramePayload(CLAIMED).inboundBudgetBytes(BUDGET);
        List<RawClient> holders = new ArrayList<>();
        try (WebSocketServer server = new WebSocketServer(config, new EchoListener()).start()) {
            byte[] partial = new byte[14 + SENT];
            FrameWriter.writeHeader(partial, 0, true, OpCode.BINARY, CLAIMED, true, 0x01020304);
            long most = 0;
            for (int i = 0; i < CONNECTIONS; i++) {
                RawClient c = RawClient.open(server.port());
                holders.add(c);
                c.send(partial);
                most = Math.max(most, server.inboundBufferedBytes());
            }
            for (int i = 0; i < 100; i++) {
                most = Math.max(most, server.inboundBufferedBytes());
                Thread.sleep(10);
            }
            long hardLimit = BUDGET + Math.max(BUDGET / 2, CLAIMED);
            long bound = hardLimit + CONNECTIONS * (long) ReadGate.SPENT_WINDOW + 4 * 32 * 1024;
            System.out.println("held at most " + most + " bytes for " + CONNECTIONS + " partial messages of " + SENT + " bytes; bound " + bound);
            assertTrue(most <= bound, "held " + most + " bytes, over " + bound + " (without the small reads: up to " + CONNECTIONS * (long) SENT + ")");
            try (RawClient other = RawClient.open(server.port())) {
                other.send(other.writer.frame(OpCode.TEXT, true, "still served".getBytes(), 0, 12));
                assertEquals("still served", new String(other.readFrame(20_000).payload()));
            }
        } finally {
            for (RawClient c : holders) {
                c.close();
            }
        }
    }
}
