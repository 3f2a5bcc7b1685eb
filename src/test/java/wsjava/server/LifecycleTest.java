package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.Field;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.Selector;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.LogCapture;
import wsjava.testing.RawClient;

/** start() and stop() in every order, from every thread, and a server whose I/O thread dies. */
@Timeout(60)
class LifecycleTest {

    private static int openFileDescriptors() {
        String[] fds = new File("/proc/self/fd").list();
        return fds == null ? -1 : fds.length;
    }

    private static void echoes(int port) throws Exception {
        try (RawClient c = RawClient.open(port)) {
            c.send(c.writer.frame(OpCode.TEXT, true, new byte[] {'x'}, 0, 1));
            Frame f = c.readFrame(10_000);
            assertTrue(f != null && f.opcode() == OpCode.TEXT, "expected an echo, got " + f);
        }
    }

    @Test
    void aFailedBindLeavesNothingOpenAndStartCanBeTriedAgain() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            WebSocketServer server = new WebSocketServer(new ServerConfig().port(taken.getLocalPort()), new EchoListener());
            int before = openFileDescriptors();
            for (int i = 0; i < 20; i++) {
                assertThrows(BindException.class, server::start);
            }
            assertTrue(openFileDescriptors() <= before + 2, "20 failed binds left " + (openFileDescriptors() - before) + " descriptors open");
            assertFalse(server.isRunning());
            int port = taken.getLocalPort();
            taken.close();
            server.start();
            try {
                assertEquals(port, server.port());
                echoes(server.port());
            } finally {
                server.stop();
            }
        }
    }

    @Test
    void stopBeforeStartIsANoOpAndAStoppedServerSaysSo() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener());
        server.stop();
        server.start();
        try {
            echoes(server.port());
        } finally {
            server.stop();
        }
        assertTrue(server.awaitStopped(10, TimeUnit.SECONDS));
        IllegalStateException e = assertThrows(IllegalStateException.class, server::start);
        assertTrue(e.getMessage().contains("stopped"), e.getMessage());
    }

    @Test
    void tryWithResourcesStopsAndStopTakesItsOwnTimeout() throws Exception {
        WebSocketServer kept;
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).closeTimeoutMillis(60_000), new EchoListener()).start()) {
            kept = server;
            echoes(server.port());
        }
        assertTrue(kept.awaitStopped(10, TimeUnit.SECONDS), "close() stopped it");
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).closeTimeoutMillis(60_000), new EchoListener()).start();
        try (RawClient silent = RawClient.open(server.port())) {      // never answers the 1001 close
            long t0 = System.nanoTime();
            server.stop(200);
            assertTrue((System.nanoTime() - t0) / 1_000_000 < 20_000, "stop(200) did not wait for the 60 s close timeout");
            assertFalse(server.isRunning());
        }
    }

    @Test
    void stopFromAListenerReturnsAtOnceAndTheLoopGoesOnClosing() throws Exception {
        CompletableFuture<Long> stopMillis = new CompletableFuture<>();
        WebSocketServer[] holder = new WebSocketServer[1];
        WebSocketListener listener = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                long t0 = System.nanoTime();
                holder[0].stop();
                stopMillis.complete((System.nanoTime() - t0) / 1_000_000);
            }
        };
        // A long close timeout: a stop() that waited for it on the I/O thread would hold that thread 60 s.
        holder[0] = new WebSocketServer(new ServerConfig().port(0).ioThreads(1).closeTimeoutMillis(60_000), listener).start();
        try (RawClient c = RawClient.open(holder[0].port())) {
            c.send(c.writer.frame(OpCode.TEXT, true, new byte[] {'s'}, 0, 1));
            assertTrue(stopMillis.get(30, TimeUnit.SECONDS) < 10_000, "stop() held the I/O thread");
            Frame close = c.readFrame(20_000);
            assertTrue(close != null && close.opcode() == OpCode.CLOSE, "the I/O thread sent the 1001 close: " + close);
            assertEquals(1001, (close.payload()[0] & 0xFF) << 8 | (close.payload()[1] & 0xFF));
        }
        assertTrue(holder[0].awaitStopped(30, TimeUnit.SECONDS));
    }

    @Test
    void aLoopThatCannotGoOnStopsTheServerLoudly() throws Exception {
        LogCapture log = new LogCapture(WebSocketServer.class);
        List<LogRecord> records = log.records;
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(2), new EchoListener()).start();
        try {
            int port = server.port();
            echoes(port);
            selectorOf(server, 0).close();      // what a failing selector looks like to its loop
            assertTrue(server.awaitStopped(30, TimeUnit.SECONDS), "the server stopped");
            assertFalse(server.isRunning());
            assertInstanceOf(ClosedSelectorException.class, server.failure());
            try (ServerSocket again = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
                assertEquals(port, again.getLocalPort(), "the port was released");
            }
            assertTrue(records.stream().anyMatch(r -> r.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue()
                    && r.getMessage().contains("stops")), "a log line says the server stops");
        } finally {
            log.close();
            server.stop();
        }
    }

    private static Selector selectorOf(WebSocketServer server, int loop) throws Exception {
        Field lifecycle = WebSocketServer.class.getDeclaredField("lifecycle");
        lifecycle.setAccessible(true);
        Object ioLoop = ((ServerLifecycle) lifecycle.get(server)).loops().get(loop);
        Field selector = SelectorLoop.class.getDeclaredField("selector");
        selector.setAccessible(true);
        return (Selector) selector.get(ioLoop);
    }

}
