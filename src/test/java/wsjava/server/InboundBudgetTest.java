package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * Many clients each sending most of a large message and then stalling: without a server-wide
 * budget every one of them holds a message buffer; with it, the server stops reading from them,
 * keeps serving others, and loses nothing once they finish.
 */
@Timeout(180)
class InboundBudgetTest {

    private static final int MESSAGE = 3 << 20;
    private static final int SENT_FIRST = MESSAGE - (MESSAGE / 6);
    private static final long BUDGET = 4 << 20;

    @Test
    void stalledHalfMessagesCannotTakeMoreThanTheBudgetAndNothingIsLost() throws Exception {
        ServerConfig config = new ServerConfig().port(0).maxMessageSize(MESSAGE).maxFramePayload(MESSAGE).inboundBudgetBytes(BUDGET);
        WebSocketServer server = new WebSocketServer(config, new EchoListener()).start();
        List<RawClient> stallers = new ArrayList<>();
        List<byte[]> frames = new ArrayList<>();
        List<CompletableFuture<Void>> firstHalves = new ArrayList<>();
        try {
            for (int i = 0; i < 16; i++) {
                RawClient c = RawClient.open(server.port());
                byte[] payload = new byte[MESSAGE];
                Arrays.fill(payload, (byte) i);
                byte[] frame = c.writer.frame(OpCode.BINARY, true, payload, 0, MESSAGE);
                stallers.add(c);
                frames.add(frame);
                firstHalves.add(CompletableFuture.runAsync(() -> send(c, Arrays.copyOfRange(frame, 0, frame.length - (MESSAGE - SENT_FIRST)))));
            }
            long unbounded = 16L * MESSAGE;
            long bound = BUDGET + 3L * MESSAGE;     // the overdraft holder, and a connection per I/O thread crossing at once
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            long most = 0;
            while (System.nanoTime() < deadline && !firstHalves.stream().allMatch(CompletableFuture::isDone)) {
                most = Math.max(most, server.inboundBufferedBytes());
                Thread.sleep(10);
            }
            for (int i = 0; i < 30; i++) {      // a message past the budget may not pause a second while others wait (OverdraftTest)
                most = Math.max(most, server.inboundBufferedBytes());
                Thread.sleep(10);
            }
            assertTrue(most <= bound, "buffered " + most + " bytes of stalled messages; the bound is " + bound
                    + " (without a budget: up to " + unbounded + ")");
            assertTrue(most >= BUDGET, "the stallers did fill the budget: " + most);
            try (RawClient other = RawClient.open(server.port())) {
                other.send(other.writer.frame(OpCode.TEXT, true, "still served".getBytes(), 0, 12));
                Frame f = other.readFrame(20_000);
                assertEquals("still served", new String(f.payload()));
            }
            List<CompletableFuture<Long>> echoes = new ArrayList<>();
            for (int i = 0; i < stallers.size(); i++) {
                RawClient c = stallers.get(i);
                byte[] frame = frames.get(i);
                int id = i;
                CompletableFuture<Void> rest = firstHalves.get(i).thenRunAsync(() -> send(c, Arrays.copyOfRange(frame, frame.length - (MESSAGE - SENT_FIRST), frame.length)));
                echoes.add(rest.thenApplyAsync(ignored -> echoedBytes(c, (byte) id)));
            }
            for (CompletableFuture<Long> echo : echoes) {
                assertEquals(MESSAGE, echo.get(120, TimeUnit.SECONDS), "every stalled message arrives whole once sent");
            }
            assertTrue(server.inboundBufferedBytes() <= 16L * 8 * 1024, "buffers released: " + server.inboundBufferedBytes());
        } finally {
            for (RawClient c : stallers) {
                c.close();
            }
            server.stop();
        }
    }

    @Test
    void headersClaimingHugeMessagesCostNothingAndOthersAreServed() throws Exception {
        // The attack that used to stop the server: many connections send only the 14-byte header of
        // a 16 MiB binary frame, with no payload, no Origin and no token.
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        List<RawClient> attackers = new ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                RawClient a = RawClient.open(server.port());
                byte[] header = new byte[14];
                wsjava.protocol.FrameWriter.writeHeader(header, 0, true, OpCode.BINARY, 16 << 20, true, i);
                a.send(header);
                attackers.add(a);
            }
            try (RawClient other = RawClient.open(server.port())) {
                other.send(other.writer.frame(OpCode.TEXT, true, "served".getBytes(), 0, 6));
                assertEquals("served", new String(other.readFrame(20_000).payload()));
            }
            assertTrue(server.inboundBufferedBytes() <= 8 * 1024, "a claimed length allocates nothing: " + server.inboundBufferedBytes());
            assertTrue(server.isRunning());
        } finally {
            for (RawClient a : attackers) {
                a.close();
            }
            server.stop();
        }
    }

    private static void send(RawClient c, byte[] bytes) {
        try {
            c.send(bytes);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads one echoed message (fragments joined), checking every byte is the sender's. */
    private static long echoedBytes(RawClient c, byte fill) {
        try {
            long total = 0;
            Frame f;
            do {
                f = c.readFrame(60_000);
                for (byte b : f.payload()) {
                    if (b != fill) {
                        throw new IllegalStateException("a byte from another message");
                    }
                }
                total += f.payload().length;
            } while (!f.fin());
            return total;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
