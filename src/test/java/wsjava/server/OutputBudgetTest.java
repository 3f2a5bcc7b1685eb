package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.CloseCodes;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * Adversarial review after issue 20: echoes of large messages to clients that never read were in
 * no server-wide budget (16 such clients sending 8 MB messages ran a 128 MiB server out of memory,
 * and 3 subscribers that never read held 124 MiB of it). Output is now counted server-wide; past
 * the output budget, clients whose output has taken nothing for a second are dropped with 1008,
 * and clients that read are served throughout.
 */
@Timeout(120)
class OutputBudgetTest {

    private static final int MESSAGE = 2 << 20;
    private static final long BUDGET = 4 << 20;

    @Test
    void clientsThatNeverReadAreShedOnceTheOutputBudgetIsSpentAndReadersAreServed() throws Exception {
        RecordingListener listener = new RecordingListener();
        ServerConfig config = new ServerConfig().port(0).maxMessageSize(MESSAGE).maxFramePayload(MESSAGE).outputBudgetBytes(BUDGET);
        List<RawClient> attackers = new ArrayList<>();
        try (WebSocketServer server = new WebSocketServer(config, listener).start();
             RawClient reader = RawClient.open(server.port())) {
            byte[] big = new byte[MESSAGE];
            for (int i = 0; i < 8; i++) {
                RawClient a = RawClient.open(server.port());
                attackers.add(a);
                sendWithoutReading(a, big, 8);      // more than the sockets' buffers take, and never reads the echoes
            }
            long most = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
            int roundTrips = 0;
            byte[] small = new byte[64 * 1024];
            Arrays.fill(small, (byte) 7);
            while (System.nanoTime() < deadline) {
                reader.send(reader.writer.frame(OpCode.BINARY, true, small, 0, small.length));
                Frame echo = reader.readFrame(10_000);
                assertEquals(small.length, echo.payload().length, "a client that reads is served meanwhile");
                roundTrips++;
                most = Math.max(most, server.outputHeldBytes());
            }
            int shed = 0;
            for (WebSocketConnection c : listener.opened) {
                Integer code = listener.closeOf(c.id()).getNow(null);
                if (code != null && code == CloseCodes.POLICY_VIOLATION) {
                    shed++;
                }
            }
            System.out.println("output held at most " + most + " bytes; " + shed + " of 8 non-readers shed; " + roundTrips + " round trips");
            assertTrue(shed >= 8 - (int) (BUDGET / (1 << 20)), shed + " non-readers shed: all but those the budget holds beyond the read pause");
            assertTrue(server.outputHeldBytes() <= BUDGET + MESSAGE, "output held after shedding: " + server.outputHeldBytes());
            assertTrue(roundTrips > 10, "the reader was served: " + roundTrips + " round trips");
        } finally {
            for (RawClient a : attackers) {
                a.close();
            }
        }
    }

    /**
     * Each fresh client that never reads could add one echo past a spent budget: 20 sending 8 MB
     * messages ran a 128 MiB server out of memory. Output past the budget now takes the inbound
     * budget's room, so output stays within the budget plus that room and one message.
     */
    @Test
    void outputPastTheBudgetTakesTheInboundRoom() throws Exception {
        int message = 8 << 20;
        long inbound = 8 << 20;
        ServerConfig config = new ServerConfig().port(0).maxMessageSize(message).maxFramePayload(message)
                .outputBudgetBytes(BUDGET).inboundBudgetBytes(inbound);
        List<RawClient> attackers = new ArrayList<>();
        try (WebSocketServer server = new WebSocketServer(config, new RecordingListener()).start()) {
            byte[] big = new byte[message];
            for (int i = 0; i < 16; i++) {
                RawClient a = RawClient.open(server.port());
                a.setReceiveBufferSize(4096);
                attackers.add(a);
                sendWithoutReading(a, big, 1);
            }
            long most = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < deadline) {
                most = Math.max(most, server.outputHeldBytes());
                Thread.sleep(1);
            }
            // The budget, what the inbound budget and its overdraft held when it was spent, and the echo that spent it.
            long bound = BUDGET + inbound + Math.max(inbound / 2, message) + message;
            System.out.println("output held at most " + most + " bytes, bound " + bound + " (16 non-readers of 8 MiB messages)");
            assertTrue(most <= bound, "output held " + most + " bytes, over " + bound);
        } finally {
            for (RawClient a : attackers) {
                a.close();
            }
        }
    }

    @Test
    void aClientThatReadsLateButWithinASecondKeepsItsEchoes() throws Exception {
        RecordingListener listener = new RecordingListener();
        ServerConfig config = new ServerConfig().port(0).maxMessageSize(MESSAGE).maxFramePayload(MESSAGE).outputBudgetBytes(1 << 20);
        try (WebSocketServer server = new WebSocketServer(config, listener).start();
             RawClient late = RawClient.open(server.port())) {
            byte[] big = new byte[MESSAGE];
            Arrays.fill(big, (byte) 3);
            late.send(late.writer.frame(OpCode.BINARY, true, big, 0, MESSAGE));
            Thread.sleep(500);
            long total = 0;
            Frame f;
            do {
                f = late.readFrame(10_000);
                assertEquals(OpCode.BINARY == f.opcode() || OpCode.CONTINUATION == f.opcode(), true, "data, not a close");
                total += f.payload().length;
            } while (!f.fin());
            assertEquals(MESSAGE, total);
        }
    }

    /** Sends {@code message} {@code times} times on a thread of its own and never reads the echoes. */
    private static void sendWithoutReading(RawClient client, byte[] message, int times) {
        Thread sender = new Thread(() -> {
            try {
                for (int m = 0; m < times; m++) {
                    client.send(client.writer.frame(OpCode.BINARY, true, message, 0, message.length));
                }
            } catch (java.io.IOException e) {
                // shed: the server closed it
            }
        }, "non-reader");
        sender.setDaemon(true);
        sender.start();
    }
}
