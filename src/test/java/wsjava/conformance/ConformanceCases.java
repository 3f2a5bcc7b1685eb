package wsjava.conformance;

import static wsjava.conformance.ConformanceCase.open;
import static wsjava.conformance.ConformanceCase.raw;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * The suite, written from ../shared/notes/conformance.md (Autobahn's case groups and RFC 6455's
 * other musts) in this project's own words. Every case runs against a live server over TCP.
 */
final class ConformanceCases {

    private static final int[] SIZES = {0, 125, 126, 127, 128, 65535, 65536};

    private ConformanceCases() {
    }

    static List<ConformanceCase> all() {
        List<ConformanceCase> cases = new ArrayList<>();
        framing(cases);
        pingPong(cases);
        reservedBits(cases);
        opcodes(cases);
        fragmentation(cases);
        utf8(cases);
        close(cases);
        limitsAndSpeed(cases);
        autoFragmentation(cases);
        rfcExtras(cases);
        handshake(cases);
        DeflateCases.add(cases);
        return cases;
    }

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static String text(int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append((char) ('a' + i % 26));
        }
        return b.toString();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static byte[] hex(String hex) {
        return wsjava.testing.Hex.bytes(hex);
    }

    // ---- 1 Framing ----
    private static void framing(List<ConformanceCase> cases) {
        int n = 0;
        for (boolean chopped : new boolean[] {false, true}) {
            for (int size : SIZES) {
                String how = chopped ? ", sent in 997-byte TCP chunks" : "";
                cases.add(open("1." + (++n), "text of " + size + " bytes" + how, run -> {
                    String t = text(size);
                    byte[] f = run.frame(OpCode.TEXT, true, t.getBytes(StandardCharsets.UTF_8));
                    if (chopped) {
                        run.client.sendChopped(f, 997, 0);
                    } else {
                        run.send(f);
                    }
                    run.expectText(t);
                    run.closeHandshake(1000, 1000);
                }));
                cases.add(open("1." + (++n), "binary of " + size + " bytes" + how, run -> {
                    byte[] b = random(size, size);
                    byte[] f = run.frame(OpCode.BINARY, true, b);
                    if (chopped) {
                        run.client.sendChopped(f, 997, 0);
                    } else {
                        run.send(f);
                    }
                    run.expectBinary(b);
                    run.closeHandshake(1000, 1000);
                }));
            }
        }
    }

    // ---- 2 Ping/Pong ----
    private static void pingPong(List<ConformanceCase> cases) {
        cases.add(open("2.1", "ping without payload", run -> {
            run.send(run.frame(OpCode.PING, true, new byte[0]));
            run.expectPong(new byte[0]);
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("2.2", "ping with 5 bytes of text payload", run -> {
            byte[] p = "Hello".getBytes(StandardCharsets.UTF_8);
            run.send(run.frame(OpCode.PING, true, p));
            run.expectPong(p);
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("2.3", "ping with 8 bytes of binary payload", run -> {
            byte[] p = hex("00 ff fe fd fc fb 00 ff");
            run.send(run.frame(OpCode.PING, true, p));
            run.expectPong(p);
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("2.4", "ping with 125 bytes of payload (the maximum)", run -> {
            byte[] p = random(125, 24);
            run.send(run.frame(OpCode.PING, true, p));
            run.expectPong(p);
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("2.5", "ping with 126 bytes of payload: fail 1002", run -> {
            byte[] f = concat(hex("89 fe 00 7e 00 00 00 00"), new byte[126]);
            run.send(f);
            run.expectFailure(1002);
        }));
        cases.add(open("2.6", "ping with 125 bytes sent one byte per TCP write", run -> {
            byte[] p = random(125, 26);
            run.client.sendChopped(run.frame(OpCode.PING, true, p), 1, 0);
            run.expectPong(p);
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("2.7", "unsolicited pong without payload is ignored", run -> {
            run.send(run.frame(OpCode.PONG, true, new byte[0]));
            run.expectSilence(300);
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("2.8", "unsolicited pong with payload is ignored", run -> {
            run.send(run.frame(OpCode.PONG, true, "unsolicited".getBytes(StandardCharsets.UTF_8)));
            run.expectSilence(300);
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("2.9", "unsolicited pong, then ping: only the ping is answered", run -> {
            run.send(run.frame(OpCode.PONG, true, "pong".getBytes(StandardCharsets.UTF_8)),
                    run.frame(OpCode.PING, true, "ping".getBytes(StandardCharsets.UTF_8)));
            run.expectPong("ping".getBytes(StandardCharsets.UTF_8));
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("2.10", "10 pings in a row, each answered", run -> {
            for (int i = 0; i < 10; i++) {
                run.send(run.frame(OpCode.PING, true, ("payload-" + i).getBytes(StandardCharsets.UTF_8)));
            }
            for (int i = 0; i < 10; i++) {
                run.expectPong(("payload-" + i).getBytes(StandardCharsets.UTF_8));
            }
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("2.11", "10 pings in a row, chopped into 1-byte TCP writes", run -> {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int i = 0; i < 10; i++) {
                all.writeBytes(run.frame(OpCode.PING, true, ("payload-" + i).getBytes(StandardCharsets.UTF_8)));
            }
            run.client.sendChopped(all.toByteArray(), 1, 0);
            for (int i = 0; i < 10; i++) {
                run.expectPong(("payload-" + i).getBytes(StandardCharsets.UTF_8));
            }
            run.closeHandshake(1000, 1000);
        }));
    }

    // ---- 3 Reserved bits ----
    private static void reservedBits(List<ConformanceCase> cases) {
        int n = 0;
        int[] opcodes = {OpCode.TEXT, OpCode.BINARY, OpCode.PING, OpCode.CLOSE};
        for (int opcode : opcodes) {
            for (int rsv = 1; rsv <= 7; rsv++) {
                int bits = rsv;
                cases.add(open("3." + (++n), OpCode.name(opcode) + " with RSV=" + rsv + ": fail 1002 at once", run -> {
                    byte[] payload = opcode == OpCode.CLOSE ? hex("03 e8") : "Hello".getBytes(StandardCharsets.UTF_8);
                    run.send(run.frameWithRsv(opcode, bits, payload));
                    run.expectFailure(1002);
                }));
            }
        }
        cases.add(open("3." + (++n), "valid text, text with RSV=2, then ping: echo, fail 1002, no pong", run -> {
            run.send(run.frame(OpCode.TEXT, true, "Hello".getBytes(StandardCharsets.UTF_8)),
                    run.frameWithRsv(OpCode.TEXT, 2, "Hello".getBytes(StandardCharsets.UTF_8)),
                    run.frame(OpCode.PING, true, "Hello".getBytes(StandardCharsets.UTF_8)));
            run.expectText("Hello");
            failNotEchoingLater(run);
        }));
        cases.add(open("3." + (++n), "valid text, text with RSV=3 in its own TCP write, ping after", run -> {
            run.sendText("Hello");
            run.send(run.frameWithRsv(OpCode.TEXT, 3, "Hello".getBytes(StandardCharsets.UTF_8)));
            run.send(run.frame(OpCode.PING, true, "Hello".getBytes(StandardCharsets.UTF_8)));
            run.expectText("Hello");
            failNotEchoingLater(run);
        }));
    }

    /** After a bad frame, a pong for a later ping means the server kept going: NON-STRICT. */
    private static void failNotEchoingLater(CaseRun run) throws Exception {
        wsjava.protocol.Frame f = run.next(CaseRun.READ_TIMEOUT);
        if (f != null && f.opcode() == OpCode.PONG) {
            throw new GradeException(Grade.NON_STRICT, "answered a ping sent after the bad frame");
        }
        if (f == null || f.opcode() != OpCode.CLOSE) {
            throw new GradeException(Grade.FAILED, "expected close 1002, got " + CaseRun.describe(f));
        }
        if (CaseRun.closeCode(f) != 1002) {
            throw new GradeException(Grade.WRONG_CODE, "close " + CaseRun.closeCode(f) + ", expected 1002");
        }
        if (!run.client.closedByServerWithin(2_000)) {
            throw new GradeException(Grade.FAILED, "server did not close TCP");
        }
    }

    // ---- 4 Opcodes ----
    private static void opcodes(List<ConformanceCase> cases) {
        int n = 0;
        for (int opcode : new int[] {3, 4, 5, 6, 7, 11, 12, 13, 14, 15}) {
            for (boolean withPayload : new boolean[] {false, true}) {
                cases.add(open("4." + (++n), "reserved opcode " + opcode + (withPayload ? " with payload" : " without payload")
                        + ": fail 1002", run -> {
                    run.send(run.frame(opcode, true, withPayload ? "reserved".getBytes(StandardCharsets.UTF_8) : new byte[0]));
                    run.expectFailure(1002);
                }));
            }
        }
        cases.add(open("4." + (++n), "valid text, reserved opcode 5, then ping: echo, fail 1002, no pong", run -> {
            run.send(run.frame(OpCode.TEXT, true, "Hello".getBytes(StandardCharsets.UTF_8)),
                    run.frame(5, true, new byte[0]),
                    run.frame(OpCode.PING, true, "Hello".getBytes(StandardCharsets.UTF_8)));
            run.expectText("Hello");
            failNotEchoingLater(run);
        }));
    }

    // ---- 5 Fragmentation ----
    private static void fragmentation(List<ConformanceCase> cases) {
        byte[] frag1 = "fragment1".getBytes(StandardCharsets.UTF_8);
        byte[] frag2 = "fragment2".getBytes(StandardCharsets.UTF_8);
        cases.add(open("5.1", "ping in 2 fragments: fail 1002", run -> {
            run.send(run.frame(OpCode.PING, false, frag1), run.frame(OpCode.CONTINUATION, true, frag2));
            run.expectFailure(1002);
        }));
        cases.add(open("5.2", "pong in 2 fragments: fail 1002", run -> {
            run.send(run.frame(OpCode.PONG, false, frag1), run.frame(OpCode.CONTINUATION, true, frag2));
            run.expectFailure(1002);
        }));
        cases.add(open("5.3", "text in 2 fragments", run -> {
            run.send(run.frame(OpCode.TEXT, false, frag1), run.frame(OpCode.CONTINUATION, true, frag2));
            run.expectText("fragment1fragment2");
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("5.4", "text in 2 fragments, 1-byte TCP writes", run -> {
            run.client.sendChopped(concat(run.frame(OpCode.TEXT, false, frag1), run.frame(OpCode.CONTINUATION, true, frag2)), 1, 0);
            run.expectText("fragment1fragment2");
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("5.5", "text in 2 fragments with a ping between: pong at once, then the echo", run -> {
            run.send(run.frame(OpCode.TEXT, false, frag1), run.frame(OpCode.PING, true, "ping".getBytes(StandardCharsets.UTF_8)));
            run.expectPong("ping".getBytes(StandardCharsets.UTF_8));   // answered before the message is complete
            run.send(run.frame(OpCode.CONTINUATION, true, frag2));
            run.expectText("fragment1fragment2");
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("5.6", "text in 9 fragments with pings between, 1-byte writes with delays", run -> {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < 9; i++) {
                byte[] part = ("part" + i).getBytes(StandardCharsets.UTF_8);
                expected.append("part").append(i);
                all.writeBytes(run.frame(i == 0 ? OpCode.TEXT : OpCode.CONTINUATION, i == 8, part));
                if (i < 8) {
                    all.writeBytes(run.frame(OpCode.PING, true, ("p" + i).getBytes(StandardCharsets.UTF_8)));
                }
            }
            run.client.sendChopped(all.toByteArray(), 7, 2);
            for (int i = 0; i < 8; i++) {
                run.expectPong(("p" + i).getBytes(StandardCharsets.UTF_8));
            }
            run.expectText(expected.toString());
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("5.7", "binary in fragments with an unsolicited pong between", run -> {
            run.send(run.frame(OpCode.BINARY, false, frag1), run.frame(OpCode.PONG, true, new byte[3]),
                    run.frame(OpCode.CONTINUATION, true, frag2));
            run.expectBinary(concat(frag1, frag2));
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("5.8", "continuation (FIN=1) with nothing to continue: fail 1002", run -> {
            run.send(run.frame(OpCode.CONTINUATION, true, frag1));
            run.expectFailure(1002);
        }));
        cases.add(open("5.9", "continuation (FIN=0) with nothing to continue: fail 1002", run -> {
            run.send(run.frame(OpCode.CONTINUATION, false, frag1));
            run.expectFailure(1002);
        }));
        cases.add(open("5.10", "continuation after a complete text: fail 1002", run -> {
            run.send(run.frame(OpCode.TEXT, true, frag1), run.frame(OpCode.CONTINUATION, true, frag2));
            run.expectText("fragment1");
            run.expectFailure(1002);
        }));
        cases.add(open("5.11", "new text in the middle of a fragmented text: fail 1002", run -> {
            run.send(run.frame(OpCode.TEXT, false, frag1), run.frame(OpCode.TEXT, true, frag2));
            run.expectFailure(1002);
        }));
        cases.add(open("5.12", "binary in the middle of a fragmented text: fail 1002", run -> {
            run.send(run.frame(OpCode.TEXT, false, frag1), run.frame(OpCode.BINARY, false, frag2));
            run.expectFailure(1002);
        }));
        cases.add(open("5.13", "empty fragments around a ping", run -> {
            run.send(run.frame(OpCode.TEXT, false, new byte[0]), run.frame(OpCode.PING, true, new byte[0]),
                    run.frame(OpCode.CONTINUATION, false, frag1), run.frame(OpCode.CONTINUATION, true, new byte[0]));
            run.expectPong(new byte[0]);
            run.expectText("fragment1");
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("5.14", "fragmented text chopped at random TCP boundaries", run -> {
            Random r = new Random(514);
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            String t = text(50_000);
            byte[] b = t.getBytes(StandardCharsets.UTF_8);
            for (int at = 0; at < b.length; ) {
                int len = Math.min(b.length - at, 1 + r.nextInt(3000));
                all.writeBytes(run.client.writer.frame(at == 0 ? OpCode.TEXT : OpCode.CONTINUATION, at + len == b.length, b, at, len));
                at += len;
            }
            byte[] wire = all.toByteArray();
            for (int at = 0; at < wire.length; ) {
                int len = Math.min(wire.length - at, 1 + r.nextInt(1500));
                run.client.send(Arrays.copyOfRange(wire, at, at + len));
                at += len;
            }
            run.expectText(t);
            run.closeHandshake(1000, 1000);
        }));
    }

    // ---- 6 UTF-8 ----
    private static void utf8(List<ConformanceCase> cases) {
        String valid = "κόσμε Grüße 世界 😀 \u007f\u0080\u07ff\u0800\uffff \udbff\udfff";
        byte[] v = valid.getBytes(StandardCharsets.UTF_8);
        cases.add(open("6.1", "valid multi-byte text in one frame", run -> {
            run.sendText(valid);
            run.expectText(valid);
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("6.2", "valid text, one byte per frame (splits inside code points)", run -> {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int i = 0; i < v.length; i++) {
                all.writeBytes(run.client.writer.frame(i == 0 ? OpCode.TEXT : OpCode.CONTINUATION, i == v.length - 1, v, i, 1));
            }
            run.send(all.toByteArray());
            run.expectText(valid);
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("6.3", "valid text split at every position into two frames, with empty fragments", run -> {
            for (int cut = 0; cut <= v.length; cut += 3) {
                run.send(run.client.writer.frame(OpCode.TEXT, false, v, 0, cut),
                        run.frame(OpCode.CONTINUATION, false, new byte[0]),
                        run.client.writer.frame(OpCode.CONTINUATION, true, v, cut, v.length - cut));
                run.expectText(valid);
            }
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("6.4", "valid text, one byte per TCP write", run -> {
            run.client.sendChopped(run.frame(OpCode.TEXT, true, v), 1, 0);
            run.expectText(valid);
            run.closeHandshake(1000, 1000);
        }));
        String[][] invalid = {
            {"overlong '/' in 2 bytes", "c0 af"},
            {"overlong '/' in 3 bytes", "e0 80 af"},
            {"overlong '/' in 4 bytes", "f0 80 80 af"},
            {"overlong U+007F", "c1 bf"},
            {"overlong U+07FF", "e0 9f bf"},
            {"overlong U+FFFF", "f0 8f bf bf"},
            {"surrogate U+D800", "ed a0 80"},
            {"surrogate U+DBFF", "ed af bf"},
            {"surrogate U+DC00", "ed b0 80"},
            {"surrogate U+DFFF", "ed bf bf"},
            {"surrogate pair U+D800 U+DC00", "ed a0 80 ed b0 80"},
            {"U+110000, past the last code point", "f4 90 80 80"},
            {"lead byte F5", "f5 80 80 80"},
            {"lead byte F8 (5-byte form)", "f8 88 80 80 80"},
            {"lead byte FC (6-byte form)", "fc 84 80 80 80 80"},
            {"byte FE", "fe"},
            {"byte FF", "ff"},
            {"stray continuation 80", "80"},
            {"stray continuation BF", "bf"},
            {"two stray continuations", "80 bf"},
            {"lead byte followed by ASCII", "c2 41"},
            {"3-byte lead cut short by ASCII", "e1 80 41"},
            {"κόσμε + surrogate + edited (Kuhn)", "ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64"},
        };
        int n = 4;
        for (String[] bad : invalid) {
            byte[] b = hex(bad[1]);
            cases.add(open("6." + (++n), "invalid text in one frame, " + bad[0] + ": fail 1007", run -> {
                run.send(run.frame(OpCode.TEXT, true, concat("ok ".getBytes(StandardCharsets.UTF_8), b)));
                run.expectFailure(1007);
            }));
            cases.add(open("6." + (++n), "invalid text in the first fragment, " + bad[0] + ": fail 1007 before the last fragment", run -> {
                run.send(run.frame(OpCode.TEXT, false, concat("ok ".getBytes(StandardCharsets.UTF_8), b, "tail".getBytes(StandardCharsets.UTF_8))));
                run.expectFailureBeforeRest(1007, run.frame(OpCode.CONTINUATION, true, "end".getBytes(StandardCharsets.UTF_8)));
            }));
        }
        cases.add(open("6." + (++n), "truncated sequence at the end of a message: fail 1007", run -> {
            run.send(run.frame(OpCode.TEXT, false, hex("41 42")), run.frame(OpCode.CONTINUATION, true, hex("43 e2 82")));
            run.expectFailure(1007);
        }));
        cases.add(open("6." + (++n), "bad byte in the first TCP chunk of one frame: fail 1007 before the rest arrives", run -> {
            byte[] payload = new byte[4000];
            Arrays.fill(payload, (byte) 'x');
            payload[100] = (byte) 0xFF;
            byte[] wire = run.frame(OpCode.TEXT, true, payload);
            run.client.send(Arrays.copyOf(wire, 1000));
            run.expectFailureBeforeRest(1007, Arrays.copyOfRange(wire, 1000, wire.length));
        }));
    }

    // ---- 7 Close ----
    private static void close(List<ConformanceCase> cases) {
        cases.add(open("7.1", "close, then a text frame: the text is ignored", run -> {
            run.send(run.client.writer.close(1000, ""), run.frame(OpCode.TEXT, true, "after close".getBytes(StandardCharsets.UTF_8)));
            run.expectCloseReply(1000);
        }));
        cases.add(open("7.2", "close, then a ping: no pong", run -> {
            run.send(run.client.writer.close(1000, ""), run.frame(OpCode.PING, true, new byte[0]));
            run.expectCloseReply(1000);
        }));
        cases.add(open("7.3", "two closes: one reply", run -> {
            run.send(run.client.writer.close(1000, ""), run.client.writer.close(1001, ""));
            run.expectCloseReply(1000);
        }));
        cases.add(open("7.4", "close with empty payload: reply 1000, close TCP", run -> {
            run.send(run.frame(OpCode.CLOSE, true, new byte[0]));
            run.expectCloseReply(1000);
        }));
        cases.add(open("7.5", "close with a 1-byte payload: fail 1002", run -> {
            run.send(run.frame(OpCode.CLOSE, true, new byte[] {3}));
            run.expectFailure(1002);
        }));
        cases.add(open("7.6", "close 1000 with a 123-byte reason: echo 1000", run -> {
            run.send(run.frame(OpCode.CLOSE, true, concat(hex("03 e8"), text(123).getBytes(StandardCharsets.UTF_8))));
            run.expectCloseReply(1000);
        }));
        cases.add(open("7.7", "close 1000 with a 124-byte reason (payload 126): fail 1002", run -> {
            run.send(concat(hex("88 fe 00 7e 00 00 00 00 03 e8"), text(124).getBytes(StandardCharsets.UTF_8)));
            run.expectFailure(1002);
        }));
        cases.add(open("7.8", "close 1000 with an invalid UTF-8 reason: fail 1007 (1002 accepted)", run -> {
            run.send(run.frame(OpCode.CLOSE, true, concat(hex("03 e8"), hex("ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64"))));
            run.expectFailure(1007, 1002);
        }));
        int n = 8;
        for (int code : new int[] {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999}) {
            cases.add(open("7." + (++n), "close with valid code " + code + ": echoed", run -> run.closeHandshake(code, code)));
        }
        for (int code : new int[] {0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999, 5000, 65535}) {
            cases.add(open("7." + (++n), "close with invalid code " + code + ": fail 1002", run -> {
                run.send(run.frame(OpCode.CLOSE, true, new byte[] {(byte) (code >> 8), (byte) code}));
                run.expectFailure(1002);
            }));
        }
    }

    // ---- 9 Limits and speed ----
    private static void limitsAndSpeed(List<ConformanceCase> cases) {
        int n = 0;
        for (int size : new int[] {64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20}) {
            cases.add(open("9." + (++n), "text message of " + (size >> 10) + " KiB", run -> {
                String t = text(size);
                run.sendText(t);
                run.expectMessage(OpCode.TEXT, t.getBytes(StandardCharsets.UTF_8), 60_000);
                run.closeHandshake(1000, 1000);
            }));
            cases.add(open("9." + (++n), "binary message of " + (size >> 10) + " KiB", run -> {
                byte[] b = random(size, size);
                run.send(run.frame(OpCode.BINARY, true, b));
                run.expectMessage(OpCode.BINARY, b, 60_000);
                run.closeHandshake(1000, 1000);
            }));
        }
        for (int fragment : new int[] {64, 256, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20}) {
            cases.add(open("9." + (++n), "4 MiB binary in fragments of " + fragment + " bytes", run -> {
                byte[] b = random(4 << 20, fragment);
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                for (int at = 0; at < b.length; at += fragment) {
                    int len = Math.min(fragment, b.length - at);
                    all.writeBytes(run.client.writer.frame(at == 0 ? OpCode.BINARY : OpCode.CONTINUATION, at + len == b.length, b, at, len));
                }
                run.send(all.toByteArray());
                run.expectMessage(OpCode.BINARY, b, 60_000);
                run.closeHandshake(1000, 1000);
            }));
        }
        for (int chunk : new int[] {64, 128, 256, 512, 1024, 2048}) {
            cases.add(open("9." + (++n), "1 MiB binary in TCP chunks of " + chunk + " bytes", run -> {
                byte[] b = random(1 << 20, chunk);
                run.client.sendChopped(run.frame(OpCode.BINARY, true, b), chunk, 0);
                run.expectMessage(OpCode.BINARY, b, 60_000);
                run.closeHandshake(1000, 1000);
            }));
        }
        for (int size : new int[] {0, 16, 64, 256, 1024, 4096}) {
            cases.add(open("9." + (++n), "1000 round trips of " + size + "-byte binary", run -> {
                byte[] b = random(size, size + 7);
                byte[] f = run.frame(OpCode.BINARY, true, b);
                for (int i = 0; i < 1000; i++) {
                    run.send(f);
                    run.expectBinary(b);
                }
                run.closeHandshake(1000, 1000);
            }));
        }
    }

    // ---- 10 Auto-fragmentation ----
    private static void autoFragmentation(List<ConformanceCase> cases) {
        cases.add(open("10.1", "3 MiB binary: the server may fragment its echo; joined it must be identical", run -> {
            byte[] b = random(3 << 20, 101);
            run.send(run.frame(OpCode.BINARY, true, b));
            run.expectMessage(OpCode.BINARY, b, 60_000);
            run.closeHandshake(1000, 1000);
        }));
    }

    // ---- RFC 6455 musts beyond Autobahn ----
    private static void rfcExtras(List<ConformanceCase> cases) {
        cases.add(open("R.1", "unmasked client frame: fail 1002 (section 5.1)", run -> {
            run.send(hex("81 05 48 65 6c 6c 6f"));
            run.expectFailure(1002);
        }));
        cases.add(open("R.2", "64-bit length with the most significant bit set: fail 1002", run -> {
            run.send(hex("82 ff 80 00 00 00 00 00 00 05 00 00 00 00"));
            run.expectFailure(1002);
        }));
        cases.add(open("R.3", "frame header announcing 17 MiB (over the 16 MiB limit): fail 1009 at once", run -> {
            run.send(hex("82 ff 00 00 00 00 01 10 00 00 00 00 00 00"));
            run.expectFailure(1009);
        }));
        cases.add(open("R.4", "fragmented message growing past the limit: fail 1009 at the fragment's header", run -> {
            byte[] chunk = new byte[9 << 20];
            run.send(run.frame(OpCode.BINARY, false, chunk));
            run.send(hex("80 ff 00 00 00 00 00 80 00 00 00 00 00 00"));     // continuation announcing 8 MiB more
            run.expectFailure(1009);
        }));
        cases.add(open("R.5", "RFC 5.7 masked \"Hello\" vector is echoed", run -> {
            run.send(hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"));
            run.expectText("Hello");
            run.closeHandshake(1000, 1000);
        }));
        cases.add(open("R.6", "server closes TCP first after the close handshake, client keeps its socket open", run -> {
            run.closeHandshake(1000, 1000);   // expectTcpClose inside: we never close our side
        }));
    }

    // ---- Handshake (section 4.2) ----
    private static void handshake(List<ConformanceCase> cases) {
        String key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
        String good = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" + key
                + "Sec-WebSocket-Version: 13\r\n\r\n";
        cases.add(raw("H.1", "valid upgrade: 101 with the RFC 1.3 accept value", port -> {
            try (RawClient c = new RawClient(port)) {
                expectStatus(c, good, 101);
                if (!c.responseHead().contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n")) {
                    throw new GradeException(Grade.FAILED, "wrong accept value: " + c.responseHead());
                }
            }
        }));
        cases.add(raw("H.2", "header names and tokens in odd case: 101", port -> {
            try (RawClient c = new RawClient(port)) {
                expectStatus(c, "GET / HTTP/1.1\r\nhOsT: 127.0.0.1\r\nUPGRADE: WebSocket\r\nconnection: keep-alive, UPGRADE\r\n"
                        + "sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nSEC-WEBSOCKET-VERSION: 13\r\n\r\n", 101);
            }
        }));
        Object[][] bad = {
            {"POST instead of GET", good.replace("GET ", "POST "), 400},
            {"HTTP/1.0", good.replace("HTTP/1.1\r\n", "HTTP/1.0\r\n"), 400},
            {"no Host", good.replace("Host: 127.0.0.1\r\n", ""), 400},
            {"Upgrade: h2c", good.replace("Upgrade: websocket", "Upgrade: h2c"), 400},
            {"Connection without Upgrade", good.replace("Connection: Upgrade", "Connection: keep-alive"), 400},
            {"no Sec-WebSocket-Key", good.replace(key, ""), 400},
            {"key of 11 bytes", good.replace("dGhlIHNhbXBsZSBub25jZQ==", "dGhlIHNhbXBsZQ=="), 400},
            {"key not base64", good.replace("dGhlIHNhbXBsZSBub25jZQ==", "!!!!!!!!!!!!!!!!!!!!!!=="), 400},
            {"version 8", good.replace("Version: 13", "Version: 8"), 426},
            {"no version", good.replace("Sec-WebSocket-Version: 13\r\n", ""), 426},
            {"malformed request line", "GET /\r\n\r\n", 400},
            {"header block over 8 KiB", good.replace("\r\n\r\n", "\r\nX-Filler: " + text(9000) + "\r\n\r\n"), 431},
            {"foreign Origin", good.replace("\r\n\r\n", "\r\nOrigin: http://evil.example\r\n\r\n"), 403},
        };
        int n = 2;
        for (Object[] b : bad) {
            cases.add(raw("H." + (++n), b[0] + ": " + b[2], port -> {
                try (RawClient c = new RawClient(port)) {
                    expectStatus(c, (String) b[1], (Integer) b[2]);
                    String body = c.readToEof();
                    if (body.isBlank()) {
                        throw new GradeException(Grade.FAILED, "no reason in the body");
                    }
                    if ((Integer) b[2] == 426 && !c.responseHead().contains("Sec-WebSocket-Version: 13")) {
                        throw new GradeException(Grade.FAILED, "426 without Sec-WebSocket-Version: 13");
                    }
                }
            }));
        }
        cases.add(raw("H." + (++n), "own Origin (http://127.0.0.1:port, https:// over TLS): 101", port -> {
            try (RawClient c = new RawClient(port)) {
                String scheme = RawClient.usesTls() ? "https" : "http";
                expectStatus(c, good.replace("\r\n\r\n", "\r\nOrigin: " + scheme + "://127.0.0.1:" + port + "\r\n\r\n"), 101);
            }
        }));
        cases.add(raw("H." + (++n), "frames sent right behind the request head are not lost", port -> {
            try (RawClient c = new RawClient(port)) {
                byte[] frame = c.writer.frame(OpCode.TEXT, true, "early".getBytes(StandardCharsets.UTF_8), 0, 5);
                c.send(concat(good.getBytes(StandardCharsets.ISO_8859_1), frame));
                if (c.readResponseHead() != 101) {
                    throw new GradeException(Grade.FAILED, "no 101");
                }
                CaseRun run = new CaseRun(c);
                run.expectText("early");
            }
        }));
    }

    private static void expectStatus(RawClient c, String request, int status) throws Exception {
        int got = c.sendRequest(request);
        if (got != status) {
            throw new GradeException(got / 100 == status / 100 ? Grade.WRONG_CODE : Grade.FAILED,
                    "status " + got + ", expected " + status);
        }
    }
}
