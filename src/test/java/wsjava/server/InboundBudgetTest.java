package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.CloseCodes;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * Many clients each sending a large message: without a server-wide budget every one of them holds
 * a message buffer; with it, the server stops reading from most, keeps serving others, and delivers
 * every message sent whole. One that stalls halfway while others wait is refused with 1008.
 */
@Timeout(180)
class InboundBudgetTest {

    private static final int MESSAGE = 3 << 20;
    private static final int SENT_FIRST = MESSAGE - (MESSAGE / 6);
    private static final long BUDGET = 4 << 20;
    private static final int SENDERS = 16;

    @Test
    void stalledHalfMessagesCannotTakeMoreThanTheBudgetAndEachEndsWholeOrRefused() throws Exception {
        ServerConfig config = new ServerConfig().port(0).maxMessageSize(MESSAGE).maxFramePayload(MESSAGE).inboundBudgetBytes(BUDGET);
        WebSocketServer server = new WebSocketServer(config, new EchoListener()).start();
        List<RawClient> stallers = new ArrayList<>();
        List<byte[]> frames = new ArrayList<>();
        List<CompletableFuture<Void>> firstHalves = new ArrayList<>();
        try {
            for (int i = 0; i < SENDERS; i++) {
                RawClient c = RawClient.open(server.port());
                byte[] frame = messageFrame(c, i);
                stallers.add(c);
                frames.add(frame);
                firstHalves.add(CompletableFuture.runAsync(() -> send(c, Arrays.copyOfRange(frame, 0, frame.length - (MESSAGE - SENT_FIRST)))));
            }
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
            assertWithinBound(most);
            assertTrue(most >= BUDGET, "the stallers did fill the budget: " + most);
            try (RawClient other = RawClient.open(server.port())) {
                other.send(other.writer.frame(OpCode.TEXT, true, "still served".getBytes(), 0, 12));
                Frame f = other.readFrame(20_000);
                assertEquals("still served", new String(f.payload()));
            }
            // A sender that stays silent over a second while others wait for room loses its message
            // (1008, TricklingPartialsTest); how many do depends on scheduling, so each may end
            // either way, but only these two ways.
            List<CompletableFuture<Outcome>> outcomes = new ArrayList<>();
            for (int i = 0; i < stallers.size(); i++) {
                RawClient c = stallers.get(i);
                byte[] rest = Arrays.copyOfRange(frames.get(i), frames.get(i).length - (MESSAGE - SENT_FIRST), frames.get(i).length);
                int id = i;
                outcomes.add(firstHalves.get(i).thenApplyAsync(ignored -> outcome(c, rest, (byte) id)));
            }
            Map<Outcome, Integer> ends = new EnumMap<>(Outcome.class);
            for (CompletableFuture<Outcome> outcome : outcomes) {
                ends.merge(outcome.get(120, TimeUnit.SECONDS), 1, Integer::sum);
            }
            System.out.println("stalled messages: " + ends);
            assertBuffersReleased(server);
        } finally {
            for (RawClient c : stallers) {
                c.close();
            }
            server.stop();
        }
    }

    @Test
    void messagesSentWholePastTheBudgetAllArriveWhole() throws Exception {
        ServerConfig config = new ServerConfig().port(0).maxMessageSize(MESSAGE).maxFramePayload(MESSAGE).inboundBudgetBytes(BUDGET);
        WebSocketServer server = new WebSocketServer(config, new EchoListener()).start();
        List<RawClient> senders = new ArrayList<>();
        try {
            List<CompletableFuture<Long>> echoes = new ArrayList<>();
            for (int i = 0; i < SENDERS; i++) {
                RawClient c = RawClient.open(server.port());
                senders.add(c);
                byte[] frame = messageFrame(c, i);
                int id = i;
                echoes.add(CompletableFuture.runAsync(() -> send(c, frame)).thenApplyAsync(ignored -> echoedBytes(c, (byte) id)));
            }
            long most = 0;
            while (!echoes.stream().allMatch(CompletableFuture::isDone)) {
                most = Math.max(most, server.inboundBufferedBytes());
                Thread.sleep(10);
            }
            for (CompletableFuture<Long> echo : echoes) {
                assertEquals(MESSAGE, echo.get(120, TimeUnit.SECONDS), "a message sent whole arrives whole, however long it waits for room");
            }
            assertWithinBound(most);
            assertBuffersReleased(server);
        } finally {
            for (RawClient c : senders) {
                c.close();
            }
            server.stop();
        }
    }

    @Test
    void idleConnectionsKeepSmallBuffersOnlyWhileTheBudgetHasRoom() throws Exception {
        // Each connection's last small message leaves a buffer for the next (up to 8 KiB, never
        // asked for): 300 of them held 2,100,000 bytes of a 1 MiB budget, room that messages need
        // and that the overdraft's hard limit assumes others never take.
        long budget = 1 << 20;
        int size = 7000;
        ServerConfig config = new ServerConfig().port(0).inboundBudgetBytes(budget);
        List<RawClient> idle = new ArrayList<>();
        try (WebSocketServer server = new WebSocketServer(config, new EchoListener()).start()) {
            byte[] text = new byte[size];
            Arrays.fill(text, (byte) 'x');
            for (int i = 0; i < 300; i++) {
                RawClient c = RawClient.open(server.port());
                idle.add(c);
                c.send(c.writer.frame(OpCode.TEXT, true, text, 0, size));
                assertEquals(size, c.readFrame(20_000).payload().length);
            }
            assertTrue(server.inboundBufferedBytes() <= budget / 2 + 2 * 8 * 1024,
                    "idle connections hold " + server.inboundBufferedBytes() + " bytes of a " + budget + "-byte budget");
        } finally {
            for (RawClient c : idle) {
                c.close();
            }
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

    private static byte[] messageFrame(RawClient c, int id) {
        byte[] payload = new byte[MESSAGE];
        Arrays.fill(payload, (byte) id);
        return c.writer.frame(OpCode.BINARY, true, payload, 0, MESSAGE);
    }

    private static void assertWithinBound(long most) {
        long bound = BUDGET + 3L * MESSAGE;     // the overdraft holder, and a connection per I/O thread crossing at once
        assertTrue(most <= bound, "buffered " + most + " bytes of messages; the bound is " + bound
                + " (without a budget: up to " + (long) SENDERS * MESSAGE + ")");
    }

    private static void assertBuffersReleased(WebSocketServer server) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.inboundBufferedBytes() > SENDERS * 8L * 1024 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(server.inboundBufferedBytes() <= SENDERS * 8L * 1024, "buffers released: " + server.inboundBufferedBytes());
    }

    private enum Outcome { WHOLE, REFUSED_AS_STALLED }

    /**
     * Sends the rest of a stalled message and reads how it ended: echoed whole, or refused with
     * 1008 for stalling (its rest may then meet a closed socket). Anything else fails the test.
     */
    private static Outcome outcome(RawClient c, byte[] rest, byte fill) {
        try {
            try {
                c.send(rest);
            } catch (IOException refusedAlready) {
                // the close frame that says why is already on its way: read it below
            }
            Frame first = c.readFrame(60_000);
            if (first != RawClient.EOF && first.opcode() == OpCode.CLOSE) {
                byte[] p = first.payload();
                int code = p.length >= 2 ? ((p[0] & 0xff) << 8) | (p[1] & 0xff) : -1;
                String reason = new String(p, Math.min(2, p.length), Math.max(0, p.length - 2), StandardCharsets.UTF_8);
                assertEquals(CloseCodes.POLICY_VIOLATION, code, "closed instead of echoing: " + reason);
                assertTrue(reason.startsWith("message stalled while others waited"), "the 1008 is for stalling: " + reason);
                return Outcome.REFUSED_AS_STALLED;
            }
            assertEquals(MESSAGE, first.payload().length + echoedRest(c, first, fill), "echoed whole");
            return Outcome.WHOLE;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String closeReason(Frame close) {
        byte[] p = close.payload();
        int code = p.length >= 2 ? ((p[0] & 0xff) << 8) | (p[1] & 0xff) : -1;
        return code + " " + new String(p, Math.min(2, p.length), Math.max(0, p.length - 2), StandardCharsets.UTF_8);
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
            Frame first = c.readFrame(60_000);
            return first.payload().length + echoedRest(c, first, fill);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Checks {@code first} and reads the message's later fragments: the bytes they carry. */
    private static long echoedRest(RawClient c, Frame first, byte fill) throws IOException {
        long rest = -first.payload().length;
        Frame f = first;
        while (true) {
            assertTrue(f != RawClient.EOF, "the echo ended early: the server closed TCP");
            if (f.opcode() == OpCode.CLOSE) {
                throw new AssertionError("the echo ended early: " + closeReason(f));
            }
            for (byte b : f.payload()) {
                if (b != fill) {
                    throw new IllegalStateException("a byte from another message");
                }
            }
            rest += f.payload().length;
            if (f.fin()) {
                return rest;
            }
            f = c.readFrame(60_000);
        }
    }
}
