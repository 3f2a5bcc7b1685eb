package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import wsjava.cli.EchoListener;
import wsjava.protocol.CloseCodes;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.LogCapture;
import wsjava.testing.RawClient;

/**
 * The transport choice, and what the FFM transport does differently from NIO underneath: its own
 * listening socket and peer addresses, its descriptor table, its sends from heap memory. The build
 * runs this class twice: on the JVM Maven runs (where AUTO is NIO below Java 22) and, with
 * {@code -Dwsjava.transport=ffm}, on a JDK 22 or later beside the conformance and attack tests.
 */
class FfmTransportTest {

    private static boolean ffmAsked() {
        return "ffm".equals(System.getProperty("wsjava.transport"));
    }

    /** Whether FFM runs here: a server asked for it says so (or falls back, saying why). */
    private static boolean ffmRuns() throws IOException {
        WebSocketServer probe = new WebSocketServer(new ServerConfig().port(0).transport(IoTransport.FFM), new EchoListener()).start();
        try {
            return probe.transport().equals("ffm");
        } finally {
            probe.stop();
        }
    }

    @Test
    void theRunThatAsksForFfmIsServedByIt() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        try {
            if (ffmAsked()) {
                assertEquals("ffm", server.transport(), "this run's servers are meant to be on FFM: a silent fallback would test NIO twice");
            } else if (Runtime.version().feature() < 22) {
                assertEquals("nio", server.transport());
            }
            try (RawClient c = RawClient.open(server.port())) {
                c.send(c.writer.text("on " + server.transport()));
                assertEquals("on " + server.transport(), new String(c.readFrame(10_000).payload(), StandardCharsets.UTF_8));
            }
        } finally {
            server.stop();
        }
    }

    /**
     * Asked for, FFM runs where it can, and its peers' addresses read as NIO's; where it cannot (below
     * Java 22), the server runs on NIO and one warning says why. Each JVM of the build checks the case it is.
     */
    @Test
    void askedForFfmGetsItOrNioWithOneWarning() throws Exception {
        if (ffmRuns()) {
            bothTransportsReportThePeerAlike();
        } else {
            ffmWhereItCannotRunIsNioWithOneWarning();
        }
    }

    private void ffmWhereItCannotRunIsNioWithOneWarning() throws Exception {
        try (LogCapture log = new LogCapture(WebSocketServer.class)) {
            WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).transport(IoTransport.FFM), new EchoListener()).start();
            try {
                assertEquals("nio", server.transport());
                try (RawClient c = RawClient.open(server.port())) {
                    c.send(c.writer.text("still served"));
                    assertEquals("still served", new String(c.readFrame(10_000).payload(), StandardCharsets.UTF_8));
                }
            } finally {
                server.stop();
            }
            List<LogRecord> said = new ArrayList<>();
            for (LogRecord r : log.records) {
                if (r.getMessage().contains("FFM transport")) {
                    said.add(r);
                }
            }
            assertEquals(1, said.size(), "one line: " + said);
            assertEquals(Level.WARNING, said.get(0).getLevel());
            assertTrue(said.get(0).getMessage().matches(".*could not start \\(.+\\); running on NIO.*"), "with its reason: " + said.get(0).getMessage());
        }
    }

    private void bothTransportsReportThePeerAlike() throws Exception {
        for (String host : new String[] {"127.0.0.1", "::1"}) {
            Map<String, String> seen = new ConcurrentHashMap<>();
            for (IoTransport transport : new IoTransport[] {IoTransport.NIO, IoTransport.FFM}) {
                BlockingQueue<String> addresses = new LinkedBlockingQueue<>();
                WebSocketListener listener = new WebSocketListener() {
                    @Override
                    public void onOpen(WebSocketConnection connection) {
                        addresses.add(connection.remoteAddress());
                    }
                };
                WebSocketServer server = new WebSocketServer(new ServerConfig().host(host).port(0).transport(transport), listener).start();
                try (java.net.Socket socket = new java.net.Socket(host, server.port())) {
                    socket.getOutputStream().write(RawClient.request("/", "").getBytes(StandardCharsets.US_ASCII));
                    String address = addresses.poll(10, TimeUnit.SECONDS);
                    String local = socket.getLocalAddress().getHostAddress();
                    assertEquals(local + ":" + socket.getLocalPort(), address, transport + " on " + host);
                    seen.put(transport.name(), address.substring(0, address.lastIndexOf(':')));
                } finally {
                    server.stop();
                }
            }
            assertEquals(seen.get("NIO"), seen.get("FFM"), "the same text for the same peer on " + host);
        }
    }

    /**
     * Work handed to a loop from other threads (sends, closes, new connections) wakes it at once,
     * however often: a wake-up read away by the loop's own reset would leave every later one unsent,
     * and each task waiting out the loop's 50 ms poll (as an early FFM loop did, after a few hundred).
     */
    @Test
    void wakeUpsFromOtherThreadsAreNeverLost() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), new EchoListener()).start();
        try {
            java.lang.reflect.Field lifecycle = WebSocketServer.class.getDeclaredField("lifecycle");
            lifecycle.setAccessible(true);
            IoLoop loop = ((ServerLifecycle) lifecycle.get(server)).loops().get(0);
            // Two threads hand it tasks as fast as they can for a while (the race needs a wake-up to
            // land inside the loop's own handling of one), then one thread, one task at a time.
            java.util.concurrent.atomic.AtomicLong handed = new java.util.concurrent.atomic.AtomicLong();
            List<Thread> wakers = new ArrayList<>();
            long until = System.nanoTime() + 1_500_000_000L;
            for (int t = 0; t < 2; t++) {
                Thread waker = new Thread(() -> {
                    for (int n = 0; n < 300_000 && System.nanoTime() < until; n++) {       // bounded: each waits in the queue
                        loop.execute(handed::incrementAndGet);
                    }
                });
                waker.start();
                wakers.add(waker);
            }
            for (Thread waker : wakers) {
                waker.join();
            }
            long start = System.nanoTime();
            for (int i = 0; i < 400; i++) {
                java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
                loop.execute(ran::countDown);
                assertTrue(ran.await(5, TimeUnit.SECONDS), "task " + i + " ran");
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds < 8, "400 tasks one after another took " + seconds + " s: wake-ups were lost (50 ms each)");
            Thread.sleep(200);          // the loop is idle now: a wake-up flag still set would swallow the next
            if (server.transport().equals("ffm")) {
                java.lang.reflect.Field woken = loop.getClass().getDeclaredField("woken");
                woken.setAccessible(true);
                assertEquals(false, ((java.util.concurrent.atomic.AtomicBoolean) woken.get(loop)).get(), "an idle loop waits for the next wake-up");
            }
            long one = System.nanoTime();
            java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
            loop.execute(ran::countDown);
            assertTrue(ran.await(5, TimeUnit.SECONDS));
            System.out.printf("wake-ups on %s: %,d tasks from two threads, then 400 one at a time in %.2f s; one more after idling ran in %.2f ms%n",
                    server.transport(), handed.get(), seconds, (System.nanoTime() - one) / 1e6);
        } finally {
            server.stop();
        }
    }

    /** The any-address takes IPv4 and IPv6 clients on both transports (NIO binds [::] for it; FFM must too). */
    @Test
    void theAnyAddressTakesIpv4AndIpv6Clients() throws Exception {
        for (IoTransport transport : new IoTransport[] {IoTransport.NIO, IoTransport.FFM}) {
            WebSocketServer server = new WebSocketServer(new ServerConfig().host("0.0.0.0").port(0).transport(transport), new EchoListener()).start();
            try {
                for (String client : new String[] {"127.0.0.1", "::1"}) {
                    try (java.net.Socket socket = new java.net.Socket(client, server.port())) {
                        socket.setSoTimeout(10_000);
                        socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                        byte[] head = new byte[12];
                        new java.io.DataInputStream(socket.getInputStream()).readFully(head);
                        assertEquals("HTTP/1.1 200", new String(head, StandardCharsets.US_ASCII), server.transport() + " from " + client);
                    }
                }
            } finally {
                server.stop();
            }
        }
    }

    @Test
    void aBusyPortIsRefusedWithItsReason() throws Exception {
        WebSocketServer first = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        try {
            WebSocketServer second = new WebSocketServer(new ServerConfig().port(first.port()), new EchoListener());
            IOException e = assertThrows(IOException.class, second::start);
            assertTrue(String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("in use"), e.getMessage());
            second.stop();
            try (RawClient c = RawClient.open(first.port())) {
                c.send(c.writer.text("first still serves"));
                assertEquals("first still serves", new String(c.readFrame(10_000).payload(), StandardCharsets.UTF_8));
            }
        } finally {
            first.stop();
        }
    }

    /** More sockets than the FFM loop's descriptor table starts with (1,024): it grows, and every one is served. */
    @Test
    void moreConnectionsThanTheTableFirstHolds() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(2), new EchoListener()).start();
        List<RawClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 1_100; i++) {
                clients.add(RawClient.open(server.port()));
            }
            for (int i = 0; i < clients.size(); i++) {
                clients.get(i).send(clients.get(i).writer.text("n" + i));
            }
            for (int i = 0; i < clients.size(); i++) {
                assertEquals("n" + i, new String(clients.get(i).readFrame(10_000).payload(), StandardCharsets.UTF_8));
            }
        } finally {
            for (RawClient c : clients) {
                c.close();
            }
            server.stop();
        }
    }

    /**
     * A reset and a FIN without a close frame both end the connection as lost (1006); the reset is
     * also an error for the listener and the FIN is not, on either transport. (FFM first receives
     * without errno and learns why a receive failed from a second one, which after a reset finds
     * only the end of the stream: the TCP state must tell the two apart.)
     */
    @Test
    void aResetIsAnErrorAFinIsNotAndTheOthersGoOn() throws Exception {
        BlockingQueue<Integer> closes = new LinkedBlockingQueue<>();
        BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        EchoListener echo = new EchoListener();
        WebSocketListener listener = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                echo.onText(connection, text);
            }

            @Override
            public void onError(WebSocketConnection connection, Throwable error) {
                errors.add(error);
            }

            @Override
            public void onClose(WebSocketConnection connection, int code, String reason) {
                closes.add(code);
            }
        };
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
        try (RawClient reset = RawClient.open(server.port()); RawClient fin = RawClient.open(server.port());
             RawClient other = RawClient.open(server.port())) {
            for (RawClient c : List.of(reset, fin)) {
                c.send(c.writer.text("before"));
                assertEquals("before", new String(c.readFrame(10_000).payload(), StandardCharsets.UTF_8));
            }
            reset.abort(true);
            assertEquals(CloseCodes.ABNORMAL, closes.poll(10, TimeUnit.SECONDS), "a reset is a lost connection");
            Throwable error = errors.poll(10, TimeUnit.SECONDS);
            assertTrue(error instanceof IOException, "a reset is an I/O error for the listener: " + error);
            fin.abort(false);
            assertEquals(CloseCodes.ABNORMAL, closes.poll(10, TimeUnit.SECONDS), "a FIN without a close frame is a lost connection");
            other.send(other.writer.text("after"));
            assertEquals("after", new String(other.readFrame(10_000).payload(), StandardCharsets.UTF_8));
            assertEquals(null, errors.poll(200, TimeUnit.MILLISECONDS), "a FIN is no error");
        } finally {
            server.stop();
        }
    }

    /**
     * Messages sent from another thread are queued, then written by the I/O thread in one gathering
     * write of header and heap payload; on FFM a heap part goes through a 64 KiB native scratch, so a
     * payload of several times that arrives over many partial writes, in order and intact.
     */
    @Test
    void largeHeapPayloadsFromAnotherThreadArriveIntact() throws Exception {
        byte[] payload = new byte[300_000];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31 + (i >> 8));
        }
        CompletableFuture<WebSocketConnection> opened = new CompletableFuture<>();
        WebSocketListener listener = new WebSocketListener() {
            @Override
            public void onOpen(WebSocketConnection connection) {
                opened.complete(connection);
            }
        };
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
        try (RawClient c = RawClient.open(server.port())) {
            WebSocketConnection connection = opened.get(10, TimeUnit.SECONDS);
            for (int i = 0; i < 5; i++) {
                assertTrue(connection.sendBinary(payload));
                assertTrue(connection.sendText("between " + i));
            }
            for (int i = 0; i < 5; i++) {
                Frame binary = c.readFrame(10_000);
                assertEquals(OpCode.BINARY, binary.opcode());
                assertArrayEquals(payload, binary.payload());
                assertEquals("between " + i, new String(c.readFrame(10_000).payload(), StandardCharsets.UTF_8));
            }
        } finally {
            server.stop();
        }
    }
}
