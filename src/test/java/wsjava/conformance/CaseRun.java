package wsjava.conformance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import wsjava.protocol.CloseException;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/** One conformance case in progress: sends through a {@link RawClient} and checks what comes back. */
final class CaseRun {

    static final int READ_TIMEOUT = 5_000;

    final RawClient client;

    CaseRun(RawClient client) {
        this.client = client;
    }

    // ---- sending ----

    byte[] frame(int opcode, boolean fin, byte[] payload) {
        return client.writer.frame(opcode, fin, payload, 0, payload.length);
    }

    /** A frame with RSV bits set: written by hand because the writer never sets them. */
    byte[] frameWithRsv(int opcode, int rsv, byte[] payload) {
        byte[] f = frame(opcode, true, payload);
        f[0] |= (byte) (rsv << 4);
        return f;
    }

    void send(byte[]... frames) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] f : frames) {
            all.writeBytes(f);
        }
        client.send(all.toByteArray());
    }

    void sendText(String text) throws IOException {
        send(frame(OpCode.TEXT, true, text.getBytes(StandardCharsets.UTF_8)));
    }

    // ---- receiving ----

    /** The next message or control frame, with fragments joined; null when TCP closed. */
    Frame next(int timeoutMillis) throws IOException, GradeException {
        Frame first;
        try {
            first = client.readFrame(timeoutMillis);
        } catch (SocketTimeoutException e) {
            throw new GradeException(Grade.FAILED, "nothing arrived within " + timeoutMillis + " ms");
        } catch (CloseException e) {
            throw new GradeException(Grade.FAILED, "server sent an invalid frame: " + e.getMessage());
        }
        if (first == null || OpCode.isControl(first.opcode()) || first.fin()) {
            return first;
        }
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        whole.writeBytes(first.payload());
        while (true) {
            Frame more = client.readFrame(timeoutMillis);
            if (more == null) {
                throw new GradeException(Grade.FAILED, "TCP closed inside a fragmented message");
            }
            if (OpCode.isControl(more.opcode())) {
                continue;   // a server may interleave pings; none of our cases expects them here
            }
            whole.writeBytes(more.payload());
            if (more.fin()) {
                return new Frame(first.header(), whole.toByteArray());
            }
        }
    }

    void expectText(String expected) throws IOException, GradeException {
        expectMessage(OpCode.TEXT, expected.getBytes(StandardCharsets.UTF_8), READ_TIMEOUT);
    }

    void expectBinary(byte[] expected) throws IOException, GradeException {
        expectMessage(OpCode.BINARY, expected, READ_TIMEOUT);
    }

    void expectPong(byte[] expected) throws IOException, GradeException {
        expectMessage(OpCode.PONG, expected, READ_TIMEOUT);
    }

    void expectMessage(int opcode, byte[] expected, int timeoutMillis) throws IOException, GradeException {
        Frame f = next(timeoutMillis);
        if (f == null) {
            throw new GradeException(Grade.FAILED, "TCP closed, expected " + OpCode.name(opcode));
        }
        if (f.opcode() != opcode) {
            throw new GradeException(Grade.FAILED, "expected " + OpCode.name(opcode) + ", got " + describe(f));
        }
        if (!Arrays.equals(expected, f.payload())) {
            throw new GradeException(Grade.FAILED, OpCode.name(opcode) + " payload differs (" + f.payload().length
                    + " bytes, expected " + expected.length + ")");
        }
    }

    /** Nothing arrives for a while (for example after an unsolicited pong). */
    void expectSilence(int millis) throws IOException, GradeException {
        try {
            Frame f = client.readFrame(millis);
            throw new GradeException(Grade.FAILED, "expected nothing, got " + describe(f));
        } catch (SocketTimeoutException expected) {
            // silence, as required
        }
    }

    /**
     * The server fails the connection: a close frame with {@code code} (or one of {@code alsoAccepted}),
     * nothing before it, then TCP closed by the server.
     */
    void expectFailure(int code, int... alsoAccepted) throws IOException, GradeException {
        Frame f = next(READ_TIMEOUT);
        if (f == null) {
            throw new GradeException(Grade.FAILED, "TCP closed without a close frame");
        }
        if (f.opcode() != OpCode.CLOSE) {
            throw new GradeException(Grade.FAILED, "expected close " + code + ", got " + describe(f) + " (bad data echoed?)");
        }
        checkCloseCode(f, code, alsoAccepted);
        expectTcpClose();
    }

    /**
     * Fail fast: the close must come before {@code rest} is sent. If it only comes after, the case
     * is NON-STRICT.
     */
    void expectFailureBeforeRest(int code, byte[] rest) throws IOException, GradeException {
        Frame f;
        try {
            f = client.readFrame(1_000);
        } catch (SocketTimeoutException e) {
            client.send(rest);
            Frame late = next(READ_TIMEOUT);
            if (late != null && late.opcode() == OpCode.CLOSE && closeCode(late) == code) {
                throw new GradeException(Grade.NON_STRICT, "failed only after the rest of the message arrived");
            }
            throw new GradeException(Grade.FAILED, "no close before or after the rest: " + describe(late));
        }
        if (f == null || f.opcode() != OpCode.CLOSE) {
            throw new GradeException(Grade.FAILED, "expected close " + code + ", got " + describe(f));
        }
        checkCloseCode(f, code);
        expectTcpClose();
    }

    /** We close with {@code code}; the server must answer with a close (echoing it) and then close TCP first. */
    void closeHandshake(int code, int expectedReply) throws IOException, GradeException {
        send(client.writer.close(code, "bye"));
        expectCloseReply(expectedReply);
    }

    void expectCloseReply(int expectedReply) throws IOException, GradeException {
        Frame f = next(READ_TIMEOUT);
        if (f == null || f.opcode() != OpCode.CLOSE) {
            throw new GradeException(Grade.FAILED, "expected a close reply, got " + describe(f));
        }
        if (closeCode(f) != expectedReply) {
            throw new GradeException(Grade.WRONG_CODE, "close reply " + closeCode(f) + ", expected " + expectedReply);
        }
        expectTcpClose();
    }

    private void checkCloseCode(Frame f, int code, int... alsoAccepted) throws GradeException {
        int got = closeCode(f);
        if (got == code) {
            return;
        }
        for (int other : alsoAccepted) {
            if (got == other) {
                return;
            }
        }
        throw new GradeException(Grade.WRONG_CODE, "close code " + got + ", expected " + code);
    }

    private void expectTcpClose() throws IOException, GradeException {
        if (!client.closedByServerWithin(2_000)) {
            throw new GradeException(Grade.FAILED, "server did not close TCP after the close frames");
        }
    }

    static int closeCode(Frame f) {
        byte[] p = f.payload();
        return p.length < 2 ? 1005 : (p[0] & 0xFF) << 8 | (p[1] & 0xFF);
    }

    static String describe(Frame f) {
        if (f == null) {
            return "TCP close";
        }
        if (f.opcode() == OpCode.CLOSE) {
            return "close " + closeCode(f);
        }
        return OpCode.name(f.opcode()) + " of " + f.payload().length + " bytes";
    }
}
