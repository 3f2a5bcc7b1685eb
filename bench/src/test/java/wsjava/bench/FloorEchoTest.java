package wsjava.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The floor server ({@code bench/c/wsfloor.c}) echoes correctly, so its cost is the cost of a
 * correct echo: the accept key, messages of 0, 125, 126, 65,535 and 65,536 bytes (each length
 * encoding and its edges) split across writes at every awkward place (inside the header, inside
 * the mask key, inside the payload), the same frames pipelined in one write, a fragmented message
 * with a ping between its fragments, and the closing handshake (its status code in a later read). Every echo is compared byte for byte.
 */
@Timeout(120)
class FloorEchoTest {

    private static final int[] SIZES = {0, 125, 126, 65535, 65536};
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    @TempDir
    static Path dir;
    private static Process server;
    private static int port;
    private final Random random = new Random(42);

    @BeforeAll
    static void startTheFloor() throws Exception {
        EchoBench.Peer floor = FloorPeer.build(dir.resolve("native"));
        if (floor == null && "1".equals(System.getenv("WSJAVA_REQUIRE_ALL_TOOLS"))) {
            throw new AssertionError("the floor could not be built (gcc)");
        }
        Assumptions.assumeTrue(floor != null, "no gcc: the floor cannot be built here");
        port = EchoBench.freePort();
        server = EchoBench.start(floor, port, false, dir);
    }

    @AfterAll
    static void stopTheFloor() throws Exception {
        if (server != null) {
            EchoBench.stop(server);
        }
    }

    @Test
    void answersTheOpeningHandshakeWithTheAcceptKey() throws Exception {
        for (int i = 0; i < 20; i++) {
            byte[] nonce = new byte[16];
            random.nextBytes(nonce);
            String key = Base64.getEncoder().encodeToString(nonce);
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(10_000);
                String head = upgrade(s, key);
                String accept = Base64.getEncoder().encodeToString(
                        MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.US_ASCII)));
                assertTrue(head.startsWith("HTTP/1.1 101 "), head);
                assertTrue(head.contains("\r\nSec-WebSocket-Accept: " + accept + "\r\n"), "expected " + accept + " in\n" + head);
            }
        }
    }

    @Test
    void echoesFramesSplitAcrossWritesAtEveryAwkwardPlace() throws Exception {
        try (Socket s = open()) {
            List<byte[]> payloads = payloads();
            CompletableFuture<byte[]> echoes = readAsync(s, expectedLength(payloads));
            OutputStream out = s.getOutputStream();
            for (byte[] p : payloads) {
                byte[] frame = clientFrame(0x82, p);
                int header = frame.length - p.length;
                // one byte; the rest of the length; all but the last byte of the mask; one payload byte; then the payload in pieces
                List<Integer> cuts = new ArrayList<>(List.of(1, Math.max(2, header - 5), header - 1, Math.min(frame.length, header + 1)));
                for (int at = header + 1 + 7001; at < frame.length; at += 7001) {
                    cuts.add(at);
                }
                cuts.add(frame.length);
                writeInPieces(out, frame, cuts);
            }
            assertArrayEquals(expected(payloads), echoes.get(60, TimeUnit.SECONDS));
        }
    }

    @Test
    void echoesPipelinedFramesFromOneWrite() throws Exception {
        try (Socket s = open()) {
            List<byte[]> payloads = new ArrayList<>(payloads());
            payloads.addAll(payloads());
            CompletableFuture<byte[]> echoes = readAsync(s, expectedLength(payloads));
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (byte[] p : payloads) {
                all.write(clientFrame(0x82, p));
            }
            byte[] bytes = all.toByteArray();
            s.getOutputStream().write(bytes, 0, bytes.length / 2);      // half, then the rest: a frame is cut in two
            s.getOutputStream().flush();
            Thread.sleep(20);
            s.getOutputStream().write(bytes, bytes.length / 2, bytes.length - bytes.length / 2);
            assertArrayEquals(expected(payloads), echoes.get(60, TimeUnit.SECONDS));
        }
    }

    @Test
    void echoesFragmentsAndAnswersAPingBetweenThem() throws Exception {
        try (Socket s = open()) {
            byte[] first = "Hello, ".getBytes(StandardCharsets.UTF_8);
            byte[] ping = {1, 2, 3};
            byte[] last = "floor".getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream want = new ByteArrayOutputStream();
            want.write(serverFrame(0x01, first));
            want.write(serverFrame(0x8A, ping));
            want.write(serverFrame(0x80, last));
            CompletableFuture<byte[]> echoes = readAsync(s, want.size());
            ByteArrayOutputStream sent = new ByteArrayOutputStream();
            sent.write(clientFrame(0x01, first));
            sent.write(clientFrame(0x89, ping));
            sent.write(clientFrame(0x8A, new byte[] {9}));      // an unsolicited pong: not echoed
            sent.write(clientFrame(0x80, last));
            s.getOutputStream().write(sent.toByteArray());
            assertArrayEquals(want.toByteArray(), echoes.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void echoesTheCloseFrameAndCloses() throws Exception {
        try (Socket s = open()) {
            byte[] close = clientFrame(0x88, new byte[] {0x03, (byte) 0xE8});
            writeInPieces(s.getOutputStream(), close, List.of(7, close.length));     // the status code comes in a read of its own
            InputStream in = s.getInputStream();
            assertArrayEquals(new byte[] {(byte) 0x88, 2, 0x03, (byte) 0xE8}, in.readNBytes(4));
            assertEquals(-1, in.read(), "the floor closes the connection after echoing the close frame");
        }
    }

    private List<byte[]> payloads() {
        List<byte[]> out = new ArrayList<>();
        for (int size : SIZES) {
            byte[] p = new byte[size];
            random.nextBytes(p);
            out.add(p);
        }
        return out;
    }

    private Socket open() throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(30_000);
        s.setTcpNoDelay(true);
        String head = upgrade(s, "dGhlIHNhbXBsZSBub25jZQ==");
        assertTrue(head.startsWith("HTTP/1.1 101 "), head);
        return s;
    }

    /** Sends the request and returns the response head, read byte by byte so nothing after it is consumed. */
    private static String upgrade(Socket s, String key) throws IOException {
        s.getOutputStream().write(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        StringBuilder head = new StringBuilder();
        InputStream in = s.getInputStream();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the handshake: " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }

    /** Writes frame[previous cut .. cut) for each cut in turn, pausing between them so each arrives in a read of its own. */
    private static void writeInPieces(OutputStream out, byte[] frame, List<Integer> cuts) throws Exception {
        int from = 0;
        for (int cut : cuts) {
            if (cut > from) {
                out.write(frame, from, cut - from);
                out.flush();
                Thread.sleep(5);
                from = cut;
            }
        }
    }

    private static CompletableFuture<byte[]> readAsync(Socket s, int length) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                byte[] got = s.getInputStream().readNBytes(length);
                if (got.length < length) {
                    throw new AssertionError("the floor closed after " + got.length + " of " + length + " bytes");
                }
                return got;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    private static int expectedLength(List<byte[]> payloads) {
        return expected(payloads).length;
    }

    private static byte[] expected(List<byte[]> payloads) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : payloads) {
            b.writeBytes(serverFrame(0x82, p));
        }
        return b.toByteArray();
    }

    private static byte[] serverFrame(int first, byte[] payload) {
        byte[] header = header(first, payload.length, false);
        byte[] f = Arrays.copyOf(header, header.length + payload.length);
        System.arraycopy(payload, 0, f, header.length, payload.length);
        return f;
    }

    private byte[] clientFrame(int first, byte[] payload) {
        byte[] header = header(first, payload.length, true);
        byte[] mask = new byte[4];
        random.nextBytes(mask);
        byte[] f = Arrays.copyOf(header, header.length + 4 + payload.length);
        System.arraycopy(mask, 0, f, header.length, 4);
        for (int i = 0; i < payload.length; i++) {
            f[header.length + 4 + i] = (byte) (payload[i] ^ mask[i & 3]);
        }
        return f;
    }

    private static byte[] header(int first, int length, boolean masked) {
        int maskBit = masked ? 0x80 : 0;
        if (length <= 125) {
            return new byte[] {(byte) first, (byte) (maskBit | length)};
        }
        if (length <= 0xFFFF) {
            return new byte[] {(byte) first, (byte) (maskBit | 126), (byte) (length >> 8), (byte) length};
        }
        byte[] h = new byte[10];
        h[0] = (byte) first;
        h[1] = (byte) (maskBit | 127);
        for (int i = 0; i < 8; i++) {
            h[2 + i] = (byte) ((long) length >>> (56 - 8 * i));
        }
        return h;
    }
}
