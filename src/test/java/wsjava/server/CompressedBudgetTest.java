package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import wsjava.testing.AttackFrames;
import wsjava.testing.PeerDeflate;
import wsjava.testing.RawClient;

/**
 * Issue 20, item 3: the inbound budget used to be charged only after a whole read had been parsed
 * and inflated, so compressed messages walked past it (60 stalled ones, 0.98 MB sent, held 1,205
 * MiB). Budget is now reserved inside the inflation loop; when it is spent, inflating stops, the
 * rest of the read is kept and the connection waits. And a message may not inflate more than 200
 * times its size past its first MiB, unless the server's shared allowance covers the rest. (A message that holds memory past the budget may not stall for
 * a second while others wait: see OverdraftTest. These stall for half a second.)
 */
@Timeout(180)
class CompressedBudgetTest {

    private static final String OFFER = "permessage-deflate; client_no_context_takeover";
    private static final int MESSAGE = 8 << 20;
    private static final long BUDGET = 4 << 20;

    @Test
    void stalledCompressedHalvesStayWithinTheBudgetAndArriveWholeOnceFinished() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).inboundBudgetBytes(BUDGET), new EchoListener()).start();
        byte[] text = AttackFrames.text(MESSAGE, 256);
        byte[] compressed = AttackFrames.deflate(text);
        assertTrue(MESSAGE / compressed.length < 200, "the test's messages inflate under the ratio cap");
        int cut = compressed.length * 9 / 10;
        byte[] first = AttackFrames.frame(false, true, OpCode.TEXT, Arrays.copyOf(compressed, cut));
        byte[] last = AttackFrames.frame(true, false, OpCode.CONTINUATION, Arrays.copyOfRange(compressed, cut, compressed.length));
        List<RawClient> stallers = new ArrayList<>();
        try {
            for (int i = 0; i < 12; i++) {
                RawClient c = RawClient.openOffering(server.port(), OFFER);
                c.send(first);
                stallers.add(c);
            }
            long most = 0;
            for (int i = 0; i < 50; i++) {         // half a second: a message past the budget may pause up to a second
                most = Math.max(most, server.inboundBufferedBytes());
                Thread.sleep(10);
            }
            long bound = BUDGET + (16 << 20) + 2 * IoLoop.READ_BUFFER_BYTES;   // the budget, its overdraft (one message), a read per thread
            assertTrue(most <= bound, "12 stalled compressed halves of 8 MiB held " + (most >> 20) + " MiB; the bound is " + (bound >> 20)
                    + " MiB (unbounded: " + (12L * MESSAGE * 9 / 10 >> 20) + " MiB)");
            List<CompletableFuture<Integer>> echoes = new ArrayList<>();
            for (RawClient c : stallers) {
                c.send(last);
                echoes.add(CompletableFuture.supplyAsync(() -> inflatedEcho(c)));
            }
            for (CompletableFuture<Integer> echo : echoes) {
                assertEquals(MESSAGE, echo.get(120, TimeUnit.SECONDS), "every stalled message arrives whole once finished");
            }
        } finally {
            for (RawClient c : stallers) {
                c.close();
            }
            server.stop();
        }
    }

    @Test
    void aLoneMessageOfSixteenMebibytesOfZerosIsEchoedWhole() throws Exception {
        // 1,000:1, within every limit set: the ratio cap alone used to refuse it with 1009.
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).maxMessageSize(16 << 20), new EchoListener()).start();
        try (RawClient c = RawClient.openOffering(server.port(), OFFER)) {
            byte[] zeros = AttackFrames.deflate(new byte[16 << 20]);
            assertTrue((16 << 20) / zeros.length > 900, "compresses about 1,000:1");
            c.send(AttackFrames.frame(true, true, OpCode.BINARY, zeros));
            assertEquals(16 << 20, inflatedEcho(c));
        } finally {
            server.stop();
        }
    }

    @Test
    void aFloodOfThousandFoldMessagesGets1009OnceTheSharedAllowanceIsSpent() throws Exception {
        int limit = 8 << 20;
        int senders = 8;
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).maxMessageSize(limit), new EchoListener()).start();
        List<RawClient> clients = new ArrayList<>();
        try {
            byte[] bomb = AttackFrames.deflate(new byte[limit]);
            byte[] frame = AttackFrames.frame(true, true, OpCode.BINARY, bomb);
            long started = System.nanoTime();
            for (int i = 0; i < senders; i++) {
                RawClient c = RawClient.openOffering(server.port(), OFFER);
                clients.add(c);
                c.send(frame);
            }
            int echoed = 0;
            int refused = 0;
            for (RawClient c : clients) {
                Frame f = c.readFrame(60_000);
                if (f.opcode() == OpCode.CLOSE) {
                    assertEquals(1009, (f.payload()[0] & 0xFF) << 8 | (f.payload()[1] & 0xFF));
                    refused++;
                } else {
                    echoed++;
                }
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            // The allowance: one message limit, refilled over 30 s; each echo drew what it inflated past the cap.
            long pastCap = limit - Math.max(1 << 20, 200L * bomb.length);
            double granted = limit + seconds * limit / wsjava.protocol.InflationAllowance.REFILL_SECONDS;
            assertTrue(refused > 0, "a flood of " + senders + " bombs in " + seconds + " s was all inflated");
            assertTrue(echoed * pastCap <= granted, echoed + " bombs of " + senders + " inflated in " + seconds
                    + " s: more than the allowance grants");
        } finally {
            for (RawClient c : clients) {
                c.close();
            }
            server.stop();
        }
    }

    /** Reads one compressed echo (fragments joined) and returns its inflated length. */
    private static int inflatedEcho(RawClient c) {
        try {
            java.io.ByteArrayOutputStream payload = new java.io.ByteArrayOutputStream();
            Frame f;
            do {
                f = c.readFrame(60_000);
                payload.writeBytes(f.payload());
            } while (!f.fin());
            return new PeerDeflate(true, false).inflate(payload.toByteArray()).length;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
