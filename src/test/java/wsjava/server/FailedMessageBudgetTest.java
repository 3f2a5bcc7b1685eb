package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * Adversarial review of d017180 (attack2, finding 1): a connection failed mid-message (here a
 * protocol error: a new message before its fragmented one ended) keeps its half message, and its
 * share of the inbound budget, until the close handshake ends: the peer never closes TCP, so the
 * close timeout (5 s). While CLOSING, the stall rule's verdict is dropped ({@code isOpen()} in
 * {@code ConnectionInput.onTimer}) even though the overdraft is taken from it, so memory granted past
 * the limit outlives its turn. Reconnecting, a client holds budget five times longer per byte than
 * the 1 s stall rule allows. {@link wsjava.protocol.MessageAssembler#abandonMessage} exists for this
 * but only the stall path calls it.
 */
@Timeout(60)
class FailedMessageBudgetTest {

    @Test
    void aMessageFailedByAProtocolErrorGivesItsBudgetBackAtOnce() throws Exception {
        ServerConfig config = new ServerConfig().port(0).inboundBudgetBytes(4 << 20);
        try (WebSocketServer server = new WebSocketServer(config, new EchoListener()).start();
             RawClient c = RawClient.open(server.port())) {
            c.send(c.writer.frame(OpCode.BINARY, false, new byte[900 * 1024], 0, 900 * 1024));
            long deadline = System.currentTimeMillis() + 10_000;
            while (server.inboundBufferedBytes() < 900 * 1024 && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            long held = server.inboundBufferedBytes();
            c.send(c.writer.frame(OpCode.TEXT, true, new byte[1], 0, 1));     // a new message mid-fragment: 1002
            Frame close = c.readFrame(10_000);
            assertEquals(OpCode.CLOSE, close.opcode());
            Thread.sleep(1_000);                                               // the client never closes TCP
            long after = server.inboundBufferedBytes();
            System.out.println("half message held " + held + " bytes; 1 s after the server failed it (code "
                    + ((close.payload()[0] & 0xFF) << 8 | (close.payload()[1] & 0xFF)) + "): " + after);
            assertTrue(after < 64 * 1024, "a failed connection still holds " + after + " bytes of the budget");
        }
    }
}
