package wsjava.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/** The facade exactly as the paclet calls it: plain types in, flat arrays out. */
class WSJavaLinkTest {

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private static byte[] unb64(String s) {
        return Base64.getDecoder().decode(s);
    }

    @Test
    void maskBase64MatchesRfcAndIsAnInvolution() {
        byte[] masked = {0x7f, (byte) 0x9f, 0x4d, 0x51, 0x58};
        assertEquals("Hello", new String(unb64(WSJavaLink.maskBase64(0x37fa213dL, b64(masked))), StandardCharsets.US_ASCII));
        byte[] data = new byte[1000];
        new java.util.Random(1).nextBytes(data);
        long key = 0xFFFFFFFFL;     // the largest WL key arrives as a long
        assertArrayEquals(data, unb64(WSJavaLink.maskBase64(key, WSJavaLink.maskBase64(key, b64(data)))));
        assertArrayEquals(WSJavaLink.maskIntegers(key, data), unb64(WSJavaLink.maskBase64(key, b64(data))));
        assertEquals("", WSJavaLink.maskBase64(1, ""));
    }

    @Test
    void benchmarkMaskNanosMeasuresSomething() {
        assertTrue(WSJavaLink.benchmarkMaskNanos(0x01020304L, 1 << 16, 5) > 0);
    }

    @Test
    void handshakeReturnsTheFlatLayoutThePacletReads() {
        String request = "GET /p?q=1 HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: b\r\n\r\nXY";
        String[] flat = WSJavaLink.handshake(b64(request.getBytes(StandardCharsets.ISO_8859_1)), new String[] {"a", "b"});
        assertEquals("101", flat[0]);
        assertTrue(new String(unb64(flat[1]), StandardCharsets.ISO_8859_1).contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="));
        assertEquals(List.of("/p", "q=1", "b", ""), Arrays.asList(flat).subList(2, 6));
        assertEquals("XY", new String(unb64(flat[6]), StandardCharsets.ISO_8859_1));
        assertEquals(List.of("host", "h"), Arrays.asList(flat).subList(7, 9));
        assertEquals(0, (flat.length - 7) % 2);
        assertEquals("426", WSJavaLink.handshake(b64(request.replace("Version: 13", "Version: 7").getBytes(StandardCharsets.ISO_8859_1)), new String[0])[0]);
        assertEquals("0", WSJavaLink.handshake(b64("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.ISO_8859_1)), new String[0])[0]);
        assertEquals("431", WSJavaLink.handshake(b64(("GET / HTTP/1.1\r\nX: " + "a".repeat(70_000)).getBytes(StandardCharsets.ISO_8859_1)), new String[0])[0]);
    }

    @Test
    void encodeThenDecodeKeepsFramesAndLeavesThePartialOneAsRest() {
        String f1 = WSJavaLink.encodeFrame(OpCode.TEXT, false, b64("Hel".getBytes(StandardCharsets.UTF_8)), true);
        String f2 = WSJavaLink.encodeFrame(OpCode.CONTINUATION, true, b64("lo".getBytes(StandardCharsets.UTF_8)), true);
        byte[] whole = concat(unb64(f1), unb64(f2));
        byte[] partial = Arrays.copyOf(unb64(f1), 4);
        String[] flat = WSJavaLink.decodeFrames(b64(concat(whole, partial)), true, 1 << 20);
        assertEquals("0", flat[0]);
        assertArrayEquals(partial, unb64(flat[2]), "the incomplete frame comes back untouched (still masked)");
        assertEquals(List.of("1", "0"), Arrays.asList(flat).subList(3, 5));
        assertEquals("Hel", new String(unb64(flat[5]), StandardCharsets.UTF_8));
        assertEquals(List.of("0", "1"), Arrays.asList(flat).subList(6, 8));
        assertEquals("lo", new String(unb64(flat[8]), StandardCharsets.UTF_8));
        String[] bad = WSJavaLink.decodeFrames(WSJavaLink.encodeFrame(OpCode.TEXT, true, "", false), true, 1000);
        assertEquals("1002", bad[0]);
        assertEquals("client frames must be masked", bad[1]);
    }

    @Test
    void serverEventsFlowThroughPollAndSendsReachTheClient() throws Exception {
        long handle = WSJavaLink.startServer(new String[] {"port", "allow-origin", "close-timeout"},
                new String[] {"0", "http://127.0.0.1:1", "500"});
        try (RawClient client = RawClient.open(WSJavaLink.serverPort(handle))) {
            List<String[]> events = pollUntil(handle, 1);
            assertEquals("Open", events.get(0)[0]);
            long id = Long.parseLong(events.get(0)[1]);
            assertEquals("/", events.get(0)[5], "the path travels with the Open event");
            assertEquals("127.0.0.1", events.get(0)[7].replaceAll(":\\d+$", ""), "remote address");
            assertArrayEquals(new long[] {id}, WSJavaLink.connections(handle));
            assertTrue(Arrays.asList(WSJavaLink.connectionHeaders(handle, id)).contains("sec-websocket-version"));

            byte[] text = "héllo".getBytes(StandardCharsets.UTF_8);
            client.send(client.writer.frame(OpCode.TEXT, true, text, 0, text.length));
            client.send(client.writer.frame(OpCode.BINARY, true, new byte[] {1, 2, (byte) 255}, 0, 3));
            events = pollUntil(handle, 2);
            assertEquals(List.of("Text", Long.toString(id), "0", "héllo"),
                    List.of(events.get(0)[0], events.get(0)[1], events.get(0)[3], events.get(0)[4]));
            assertEquals("Binary", events.get(1)[0]);
            assertArrayEquals(new byte[] {1, 2, (byte) 255}, unb64(events.get(1)[4]));

            assertEquals(7, WSJavaLink.sendText(handle, id, "from WL"));
            assertEquals(1, WSJavaLink.sendBytesBase64(handle, id, b64(new byte[] {9}), false));
            assertEquals(1, WSJavaLink.broadcastText(handle, "all"));
            assertEquals("from WL", new String(client.readFrame(3_000).payload(), StandardCharsets.UTF_8));
            assertArrayEquals(new byte[] {9}, client.readFrame(3_000).payload());
            assertEquals("all", new String(client.readFrame(3_000).payload(), StandardCharsets.UTF_8));
            assertEquals(-1, WSJavaLink.sendText(handle, id + 1000, "nobody"));
            assertEquals(2, WSJavaLink.stats(handle)[1], "messages in");

            assertTrue(WSJavaLink.stopServer(handle));
            Frame close = client.readFrame(3_000);
            assertEquals(OpCode.CLOSE, close.opcode());
            events = pollUntil(handle, 1);
            assertEquals("Close", events.get(0)[0]);
            assertEquals("1001", events.get(0)[3], "close handlers still see the stop");
            assertEquals("", events.get(0)[5], "only Open carries the connection's details");
            assertFalse(WSJavaLink.isRunning(handle));
        } finally {
            WSJavaLink.forgetServer(handle);
        }
        assertThrows(IllegalArgumentException.class, () -> WSJavaLink.serverPort(handle));
    }

    @Test
    void bytesGoAsTextOnlyWhenTheyAreUtf8AndWlFramesBecomeMessages() throws Exception {
        long handle = WSJavaLink.startServer(new String[] {"port"}, new String[] {"0"});
        try (RawClient client = RawClient.open(WSJavaLink.serverPort(handle))) {
            long id = Long.parseLong(pollUntil(handle, 1).get(0)[1]);
            byte[] utf8 = "é".getBytes(StandardCharsets.UTF_8);
            byte[] notUtf8 = {(byte) 0xC3, (byte) 0x28};
            assertEquals(2, WSJavaLink.sendBytesBase64(handle, id, b64(utf8), true));
            assertEquals(2, WSJavaLink.sendBytesBase64(handle, id, b64(notUtf8), true));
            Frame text = client.readFrame(3_000);
            Frame binary = client.readFrame(3_000);
            assertEquals(OpCode.TEXT, text.opcode());
            assertArrayEquals(utf8, text.payload());
            assertEquals(OpCode.BINARY, binary.opcode(), "bytes that are not UTF-8 never go as text");
            assertArrayEquals(notUtf8, binary.payload());

            // What WLJS's encodeFrame writes: unmasked text frames, here one over 16 MiB and one not UTF-8.
            byte[] big = new byte[17 * 1024 * 1024];
            Arrays.fill(big, (byte) 'x');
            String frames = b64(concat(unb64(WSJavaLink.encodeFrame(OpCode.TEXT, true, b64(big), false)),
                    unb64(WSJavaLink.encodeFrame(OpCode.TEXT, true, b64(notUtf8), false))));
            assertEquals(unb64(frames).length, WSJavaLink.sendFramesBase64(handle, id, frames));
            Frame first = client.readFrame(10_000);
            while (!first.fin()) {
                first = client.readFrame(10_000);
            }
            assertEquals(OpCode.BINARY, client.readFrame(3_000).opcode());
            String cut = b64(Arrays.copyOf(unb64(WSJavaLink.encodeFrame(OpCode.TEXT, true, b64(utf8), false)), 3));
            assertEquals(-1, WSJavaLink.sendFramesBase64(handle, id, cut), "a frame cut short is a failed write");
            assertEquals(-1, WSJavaLink.sendFramesBase64(handle, id + 1, frames), "no such connection");
        } finally {
            WSJavaLink.forgetServer(handle);
        }
    }

    @Test
    void hostOriginRuleAcceptsTheProxysPublicOriginOnly() throws Exception {
        long handle = WSJavaLink.startServer(new String[] {"port", "allow-host-origin"}, new String[] {"0", "true"});
        try {
            int port = WSJavaLink.serverPort(handle);
            // As WLJS's nginx forwards: Host $host, X-Forwarded-For $remote_addr (and, in its container, X-Forwarded-Host and -Proto).
            assertEquals(101, upgradeStatus(port, "Host: wljs.example.org\r\nX-Forwarded-For: 192.0.2.7", "https://wljs.example.org"));
            assertEquals(101, upgradeStatus(port, "Host: wljs\r\nX-Forwarded-For: 192.0.2.7\r\nX-Forwarded-Host: wljs:8443"
                    + "\r\nX-Forwarded-Proto: https", "https://wljs:8443"));
            assertEquals(403, upgradeStatus(port, "Host: wljs.example.org\r\nX-Forwarded-For: 192.0.2.7", "https://evil.example.org"));
            // Issue 20, item 12: a DNS-rebinding page reaches the server directly (no proxy header), with a matching Origin.
            assertEquals(403, upgradeStatus(port, "Host: evil.example:" + port, "http://evil.example:" + port));
            // WLJS's documented TLS set-up: an outer TLS proxy, then the container's plain nginx, which says http.
            assertEquals(101, upgradeStatus(port, "Host: wljs.example.org\r\nX-Forwarded-For: 192.0.2.7\r\nX-Forwarded-Host: wljs.example.org"
                    + "\r\nX-Forwarded-Proto: http", "https://wljs.example.org"), "an https page behind an inner http proxy");
            assertEquals(403, upgradeStatus(port, "Host: wljs\r\nX-Forwarded-For: 192.0.2.7", "ftp://wljs"), "only http and https origins");
        } finally {
            WSJavaLink.forgetServer(handle);
        }
    }

    @Test
    void theProbeClientTimesRoundTripsAgainstARealServer() throws Exception {
        long handle = WSJavaLink.startServer(new String[] {"port"}, new String[] {"0"});
        try {
            long probe = WSJavaLink.startProbe(WSJavaLink.serverUrl(handle), "", "ping", 3);
            int answered = 0;
            String[] result = {"running"};
            long deadline = System.currentTimeMillis() + 10_000;
            while (result[0].equals("running") && System.currentTimeMillis() < deadline) {
                for (String[] e : pollUntil(handle, 1)) {
                    if (e[0].equals("Text")) {
                        WSJavaLink.sendText(handle, Long.parseLong(e[1]), "pong:" + e[4]);
                        answered++;
                    }
                }
                result = WSJavaLink.probeResult(probe, 10);
            }
            assertEquals("ok", result[0], String.join(" ", result));
            assertEquals(3, answered);
            assertEquals("pong:ping", result[3]);
        } finally {
            WSJavaLink.forgetServer(handle);
        }
    }

    @Test
    void badOptionsFailWithAReadableMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WSJavaLink.startServer(new String[] {"port"}, new String[] {"eighty"}));
        assertEquals("port needs a whole number, got eighty", e.getMessage());
    }

    /** Text beyond the BMP crosses J/Link as UTF-8 bytes both ways, never as a surrogate pair. */
    @Test
    void textBeyondTheBmpTravelsAsUtf8() throws Exception {
        long handle = WSJavaLink.startServer(new String[] {"port", "close-timeout"}, new String[] {"0", "500"});
        try (RawClient client = RawClient.open(WSJavaLink.serverPort(handle))) {
            long id = Long.parseLong(pollUntil(handle, 1).get(0)[1]);
            byte[] emoji = "a\uD83D\uDE00".getBytes(StandardCharsets.UTF_8);
            byte[] plain = "é".getBytes(StandardCharsets.UTF_8);
            client.send(client.writer.frame(OpCode.TEXT, true, emoji, 0, emoji.length));
            client.send(client.writer.frame(OpCode.TEXT, true, plain, 0, plain.length));
            List<String[]> events = pollUntil(handle, 2);
            assertEquals("Text8", events.get(0)[0]);
            assertArrayEquals(emoji, unb64(events.get(0)[4]), "the exact UTF-8 bytes, not CESU-8");
            assertEquals(List.of("Text", "é"), List.of(events.get(1)[0], events.get(1)[4]), "BMP text stays a String");

            assertEquals(1, WSJavaLink.broadcastUtf8Base64(handle, b64(emoji)));
            Frame echoed = client.readFrame(3_000);
            assertEquals(OpCode.TEXT, echoed.opcode());
            assertArrayEquals(emoji, echoed.payload());
            assertEquals(-1, WSJavaLink.broadcastUtf8Base64(handle, b64(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})),
                    "a surrogate encoded in UTF-8 (CESU-8) is not text");
        } finally {
            WSJavaLink.stopServer(handle);
            WSJavaLink.forgetServer(handle);
        }
    }

    private static List<String[]> pollUntil(long handle, int count) throws InterruptedException {
        List<String[]> events = new ArrayList<>();
        long deadline = System.currentTimeMillis() + 5_000;
        while (events.size() < count && System.currentTimeMillis() < deadline) {
            String[] flat = WSJavaLink.poll(handle, 200, 100);
            for (int i = 0; i < flat.length; i += EventQueue.FIELDS) {
                events.add(Arrays.copyOfRange(flat, i, i + EventQueue.FIELDS));
            }
        }
        return events;
    }

    private static int upgradeStatus(int port, String hostHeaders, String origin) throws Exception {
        try (RawClient c = new RawClient(port)) {
            return c.sendRequest(RawClient.request("/", "Origin: " + origin + "\r\n").replace("Host: 127.0.0.1", hostHeaders));
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
