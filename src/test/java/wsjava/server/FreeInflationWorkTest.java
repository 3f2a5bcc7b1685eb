package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import wsjava.cli.EchoListener;
import wsjava.protocol.FrameParser;
import wsjava.protocol.MessageAssembler;
import wsjava.protocol.MessageHandler;
import wsjava.protocol.MessageInflater;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;
import wsjava.testing.AttackFrames;

/**
 * Adversarial review of d017180 (attack2, finding 3): a compressed message that completes in the
 * piece at hand inflates up to {@link MessageAssembler#FREE_INFLATED_BYTES} "without asking", and
 * that skipped question is also the per-pass work count ({@link ConnectionAllowance#INFLATE_PER_PASS}).
 * 48 KiB of zeros deflate to about 60 bytes, so one 512 KiB read holds ~8,000 such messages and a
 * pass (1,024 frames) inflates 48 MiB: 48 times the per-pass bound, for ~60 KB sent. Such long
 * passes starve the I/O thread's other connections, and keep a connection's input carried (not
 * read) across timer ticks, which since d017180 restarts every stall window on that thread.
 */
class FreeInflationWorkTest {

    @Test
    void smallCompressedMessagesCountAgainstThePassesInflationBound() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener());   // never started
        ConnectionAllowance allowance = new ConnectionAllowance(null, new InboundBudget(64 << 20, 64 << 20, new OutputBudget(64 << 20)), server);
        long[] inflated = {0};
        int[] messages = {0};
        MessageHandler counting = new MessageHandler() {
            @Override public void onText(String text) { inflated[0] += text.length(); messages[0]++; }
            @Override public void onBinary(byte[] data) { inflated[0] += data.length; messages[0]++; }
            @Override public void onPing(byte[] payload) { }
            @Override public void onPong(byte[] payload) { }
            @Override public void onClose(int code, String reason) { }
        };
        MessageAssembler assembler = new MessageAssembler(counting, 16 << 20, new MessageInflater(true), null, 0, allowance);
        byte[] one = AttackFrames.frame(true, true, OpCode.BINARY, AttackFrames.deflate(new byte[48 * 1024]));
        byte[] read = AttackFrames.repeated(one, (512 * 1024) / one.length);
        FrameParser parser = new FrameParser(Role.SERVER, 16 << 20, 4);
        ByteBuffer input = ByteBuffer.wrap(read);
        allowance.newPass();
        parser.parse(input, assembler);     // one loop pass: it stops where the allowance says the pass is over
        System.out.println("one pass of a " + read.length + "-byte read (" + one.length + "-byte frames) inflated "
                + inflated[0] + " bytes in " + messages[0] + " messages; bound " + ConnectionAllowance.INFLATE_PER_PASS);
        assertTrue(inflated[0] <= ConnectionAllowance.INFLATE_PER_PASS + MessageAssembler.FREE_INFLATED_BYTES,
                "one pass inflated " + inflated[0] + " bytes, past the per-pass bound of " + ConnectionAllowance.INFLATE_PER_PASS);
    }
}
