package wsjava.conformance;

import static wsjava.conformance.ConformanceCase.raw;
import static wsjava.conformance.ConformanceCases.random;
import static wsjava.conformance.ConformanceCases.text;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.PeerDeflate;
import wsjava.testing.RawClient;

/**
 * permessage-deflate (RFC 7692), after Autobahn's groups 12 (compressed echo) and 13 (parameter
 * combinations), plus misuse: RSV1 where it may not be, bombs, bad compressed data. The server
 * compresses messages of 1 KiB and more (its default threshold): those echoes must come back
 * compressed, shorter ones plain.
 */
final class DeflateCases {

    private static final int THRESHOLD = 1024;
    private static final int[] SIZES = {16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20};

    private DeflateCases() {
    }

    static void add(List<ConformanceCase> cases) {
        compressedEcho(cases);
        parameters(cases);
        misuse(cases);
    }

    /** A connection that offered {@code offer}; the agreement's context rules drive the client's codec. */
    private static final class Session implements AutoCloseable {
        final RawClient client;
        final CaseRun run;
        final PeerDeflate codec;
        final String agreed;

        Session(int port, String offer) throws Exception {
            client = RawClient.openOffering(port, offer);
            run = new CaseRun(client);
            agreed = client.responseHeader("Sec-WebSocket-Extensions");
            codec = new PeerDeflate(agreed != null && agreed.contains("client_no_context_takeover"),
                    agreed != null && agreed.contains("server_no_context_takeover"));
        }

        /** Sends a compressed message in {@code fragments} frames, RSV1 on the first only. */
        void sendCompressed(int opcode, byte[] message, int fragments) throws Exception {
            byte[] z = codec.compress(message);
            int step = Math.max(1, (z.length + fragments - 1) / fragments);
            for (int at = 0, f = 0; f < fragments; f++, at += step) {
                int end = f == fragments - 1 ? z.length : Math.min(z.length, at + step);
                byte[] part = Arrays.copyOfRange(z, Math.min(at, z.length), end);
                byte[] frame = run.frame(f == 0 ? opcode : OpCode.CONTINUATION, f == fragments - 1, part);
                if (f == 0) {
                    frame[0] |= 0x40;
                }
                run.send(frame);
            }
        }

        /** The echo of {@code expected}: compressed when it reaches the threshold, plain below it. */
        void expectEcho(int opcode, byte[] expected) throws Exception {
            Frame f = run.next(CaseRun.READ_TIMEOUT);
            if (f == null || f.opcode() != opcode) {
                throw new GradeException(Grade.FAILED, "expected " + OpCode.name(opcode) + ", got " + CaseRun.describe(f));
            }
            boolean compressed = (f.header().rsv() & 4) != 0;
            if (compressed != (expected.length >= THRESHOLD)) {
                throw new GradeException(Grade.FAILED, "a " + expected.length + "-byte echo came " + (compressed ? "compressed" : "uncompressed"));
            }
            byte[] got = compressed ? codec.inflate(f.payload()) : f.payload();
            if (!Arrays.equals(expected, got)) {
                throw new GradeException(Grade.FAILED, "echo differs: " + got.length + " bytes, expected " + expected.length);
            }
        }

        void expectAgreed(String response) throws GradeException {
            if (!String.valueOf(response).equals(String.valueOf(agreed))) {
                throw new GradeException(Grade.FAILED, "Sec-WebSocket-Extensions answered " + agreed + ", expected " + response);
            }
        }

        @Override
        public void close() throws Exception {
            client.close();
        }
    }

    // ---- 12 compressed echo ----
    private static void compressedEcho(List<ConformanceCase> cases) {
        int n = 0;
        for (int size : SIZES) {
            for (int fragments : new int[] {1, 3}) {
                String how = fragments > 1 ? " in " + fragments + " fragments" : "";
                cases.add(raw("12." + (++n), "compressed text of " + size + " bytes" + how, port -> {
                    try (Session s = new Session(port, "permessage-deflate")) {
                        byte[] t = wlText(size).getBytes(StandardCharsets.UTF_8);
                        s.sendCompressed(OpCode.TEXT, t, fragments);
                        s.expectEcho(OpCode.TEXT, t);
                        s.run.closeHandshake(1000, 1000);
                    }
                }));
                cases.add(raw("12." + (++n), "compressed binary of " + size + " bytes (random)" + how, port -> {
                    try (Session s = new Session(port, "permessage-deflate")) {
                        byte[] b = random(size, size);
                        s.sendCompressed(OpCode.BINARY, b, fragments);
                        s.expectEcho(OpCode.BINARY, b);
                        s.run.closeHandshake(1000, 1000);
                    }
                }));
            }
        }
        cases.add(raw("12." + (++n), "50 similar messages with context takeover, pings between them", port -> {
            try (Session s = new Session(port, "permessage-deflate")) {
                for (int i = 0; i < 50; i++) {
                    byte[] t = (wlText(2000) + i).getBytes(StandardCharsets.UTF_8);
                    s.sendCompressed(OpCode.TEXT, t, 1 + i % 3);
                    s.run.send(s.run.frame(OpCode.PING, true, new byte[] {(byte) i}));
                    s.expectEcho(OpCode.TEXT, t);
                    s.run.expectPong(new byte[] {(byte) i});
                }
                s.run.closeHandshake(1000, 1000);
            }
        }));
        cases.add(raw("12." + (++n), "compressed and plain messages mixed", port -> {
            try (Session s = new Session(port, "permessage-deflate")) {
                for (int i = 0; i < 20; i++) {
                    byte[] t = wlText(1500 + i).getBytes(StandardCharsets.UTF_8);
                    if (i % 2 == 0) {
                        s.sendCompressed(OpCode.TEXT, t, 1);
                    } else {
                        s.run.send(s.run.frame(OpCode.TEXT, true, t));
                    }
                    s.expectEcho(OpCode.TEXT, t);
                }
                s.run.closeHandshake(1000, 1000);
            }
        }));
        cases.add(raw("12." + (++n), "16 MiB of random bytes (the limit) in a compressed frame a little over 16 MiB", port -> {
            try (Session s = new Session(port, "permessage-deflate")) {
                byte[] b = random(16 << 20, 16);
                s.sendCompressed(OpCode.BINARY, b, 1);
                s.expectEcho(OpCode.BINARY, b);
                s.run.closeHandshake(1000, 1000);
            }
        }));
        cases.add(raw("12." + (++n), "an empty compressed message", port -> {
            try (Session s = new Session(port, "permessage-deflate")) {
                byte[] frame = s.run.frame(OpCode.TEXT, true, new byte[] {0});   // one empty stored block... as a 0x00 byte
                frame[0] |= 0x40;
                s.run.send(frame);
                s.expectEcho(OpCode.TEXT, new byte[0]);
                s.run.closeHandshake(1000, 1000);
            }
        }));
    }

    // ---- 13 parameter combinations ----
    private static void parameters(List<ConformanceCase> cases) {
        String[][] agreements = {
            {"permessage-deflate", "permessage-deflate"},
            {"permessage-deflate; client_max_window_bits", "permessage-deflate"},
            {"permessage-deflate; client_max_window_bits=10", "permessage-deflate"},
            {"permessage-deflate; server_no_context_takeover", "permessage-deflate; server_no_context_takeover"},
            {"permessage-deflate; client_no_context_takeover", "permessage-deflate; client_no_context_takeover"},
            {"permessage-deflate; server_no_context_takeover; client_no_context_takeover",
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover"},
            {"permessage-deflate; server_max_window_bits=15", "permessage-deflate; server_max_window_bits=15"},
            {"permessage-deflate; server_max_window_bits=\"15\"; client_max_window_bits", "permessage-deflate; server_max_window_bits=15"},
            {"permessage-deflate; server_max_window_bits=10, permessage-deflate", "permessage-deflate"},
            {"x-webkit-deflate-frame, permessage-deflate; client_no_context_takeover", "permessage-deflate; client_no_context_takeover"},
            // a parameter repeated in another letter case declines that offer (RFC 7692 section 5.1); the next one is taken
            {"permessage-deflate; client_no_context_takeover; CLIENT_NO_CONTEXT_TAKEOVER, permessage-deflate; server_no_context_takeover",
                "permessage-deflate; server_no_context_takeover"},
        };
        int n = 0;
        for (String[] a : agreements) {
            cases.add(raw("13." + (++n), "offer \"" + a[0] + "\": agreed, 10 echoes", port -> {
                try (Session s = new Session(port, a[0])) {
                    s.expectAgreed(a[1]);
                    for (int i = 0; i < 10; i++) {
                        byte[] t = (wlText(3000) + i).getBytes(StandardCharsets.UTF_8);
                        s.sendCompressed(OpCode.TEXT, t, 1 + i % 2);
                        s.expectEcho(OpCode.TEXT, t);
                    }
                    s.run.closeHandshake(1000, 1000);
                }
            }));
        }
        String[] declined = {
            "permessage-deflate; server_max_window_bits=10",      // a window java.util.zip cannot keep to
            "permessage-deflate; server_max_window_bits",         // needs a value
            "permessage-deflate; client_max_window_bits=16",
            "permessage-deflate; client_max_window_bits=09",
            "permessage-deflate; server_no_context_takeover=1",
            "permessage-deflate; unknown_parameter",
            "permessage-deflate; client_no_context_takeover; client_no_context_takeover",
            "x-webkit-deflate-frame",
        };
        for (String offer : declined) {
            cases.add(raw("13." + (++n), "offer \"" + offer + "\": declined, plain echo", port -> {
                try (Session s = new Session(port, offer)) {
                    s.expectAgreed(null);
                    byte[] t = wlText(4000).getBytes(StandardCharsets.UTF_8);
                    s.run.send(s.run.frame(OpCode.TEXT, true, t));
                    s.run.expectText(wlText(4000));
                    s.run.closeHandshake(1000, 1000);
                }
            }));
        }
        String[] malformed = {"permessage-deflate;", "permessage-deflate; a=\"b c\"", "permessage-deflate; a=\"b", "; x", "permessage deflate", "p=1"};
        for (String offer : malformed) {
            cases.add(raw("13." + (++n), "malformed offer \"" + offer + "\": 400", port -> {
                try (RawClient c = new RawClient(port)) {
                    int status = c.handshake("/", "Sec-WebSocket-Extensions: " + offer + "\r\n");
                    if (status != 400) {
                        throw new GradeException(Grade.FAILED, "status " + status + ", expected 400");
                    }
                }
            }));
        }
    }

    // ---- 12 misuse: after the echo cases ----
    private static void misuse(List<ConformanceCase> cases) {
        cases.add(raw("12.90", "RSV1 on a continuation frame: fail 1002", port -> {
            try (Session s = new Session(port, "permessage-deflate")) {
                byte[] z = s.codec.compress(wlText(3000).getBytes(StandardCharsets.UTF_8));
                byte[] first = s.run.frame(OpCode.TEXT, false, Arrays.copyOf(z, 10));
                first[0] |= 0x40;
                byte[] second = s.run.frame(OpCode.CONTINUATION, true, Arrays.copyOfRange(z, 10, z.length));
                second[0] |= 0x40;
                s.run.send(first, second);
                s.run.expectFailure(1002);
            }
        }));
        cases.add(raw("12.91", "RSV1 on a ping: fail 1002", port -> {
            try (Session s = new Session(port, "permessage-deflate")) {
                s.run.send(s.run.frameWithRsv(OpCode.PING, 4, new byte[] {1, 2}));
                s.run.expectFailure(1002);
            }
        }));
        cases.add(raw("12.92", "RSV1 when deflate was declined: fail 1002", port -> {
            try (Session s = new Session(port, "permessage-deflate; server_max_window_bits=9")) {
                byte[] f = s.run.frame(OpCode.TEXT, true, s.codec.compress("hello".getBytes(StandardCharsets.UTF_8)));
                f[0] |= 0x40;
                s.run.send(f);
                s.run.expectFailure(1002);
            }
        }));
        cases.add(raw("12.93", "RSV2 with deflate agreed: fail 1002", port -> {
            try (Session s = new Session(port, "permessage-deflate")) {
                s.run.send(s.run.frameWithRsv(OpCode.TEXT, 2, "x".getBytes(StandardCharsets.UTF_8)));
                s.run.expectFailure(1002);
            }
        }));
        cases.add(raw("12.94", "a 32 MiB bomb in 32 KiB of deflate: fail 1009", port -> {
            try (Session s = new Session(port, "permessage-deflate")) {
                byte[] f = s.run.frame(OpCode.BINARY, true, PeerDeflate.bomb(32 << 20));
                f[0] |= 0x40;
                s.run.send(f);
                s.run.expectFailure(1009);
            }
        }));
        cases.add(raw("12.95", "bytes that are not deflate data: fail 1007", port -> {
            try (Session s = new Session(port, "permessage-deflate")) {
                byte[] f = s.run.frame(OpCode.BINARY, true, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x13, 0x37});
                f[0] |= 0x40;
                s.run.send(f);
                s.run.expectFailure(1007);
            }
        }));
        cases.add(raw("12.96", "compressed text that inflates to invalid UTF-8: fail 1007", port -> {
            try (Session s = new Session(port, "permessage-deflate")) {
                byte[] bad = "valid until here \u00e9".getBytes(StandardCharsets.UTF_8);
                bad[bad.length - 1] = (byte) 0xC0;
                s.sendCompressed(OpCode.TEXT, bad, 1);
                s.run.expectFailure(1007);
            }
        }));
    }

    /** Text shaped like what a WL kernel sends: expressions, repetitive, compressible. */
    static String wlText(int size) {
        String expr = "Graphics[{Hue[0.61], Disk[{0.5, 0.5}, 0.25], Line[{{0, 0}, {1, 1}}]}, ImageSize -> 300] ";
        StringBuilder b = new StringBuilder(size);
        for (int i = 0; b.length() < size; i++) {
            b.append(expr).append(i).append(';');
        }
        return b.substring(0, size);
    }
}
