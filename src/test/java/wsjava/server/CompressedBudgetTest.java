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
 * times its size past its first MiB. (A message that holds memory past the budget may not stall for
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
    void aMessageInflatingAThousandTimesPastItsFirstMegabyteGets1009() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        try (RawClient c = RawClient.openOffering(server.port(), OFFER)) {
            byte[] bomb = AttackFrames.deflate(new byte[8 << 20]);
            c.send(AttackFrames.frame(true, true, OpCode.BINARY, bomb));
            Frame f = c.readFrame(20_000);
            assertEquals(OpCode.CLOSE, f.opcode(), "a bomb is refused, not echoed");
            assertEquals(1009, (f.payload()[0] & 0xFF) << 8 | (f.payload()[1] & 0xFF));
        } finally {
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
