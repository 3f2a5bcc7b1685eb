package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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

/** Closing well: lingering after a failure, the peer's reply seen after back-pressure, errors reported and logged. */
@Timeout(120)
class CloseHandlingTest {

    private static int code(Frame f) {
        return (f.payload()[0] & 0xFF) << 8 | (f.payload()[1] & 0xFF);
    }

    @Test
    void aFailedConnectionsCloseFrameSurvivesUnreadBytesOnBothSides() throws Exception {
        // The server fails a connection while megabytes it sent still sit in its socket buffer (the
        // client reads late) and bytes the client sent sit unread in its receive buffer. Closing the
        // socket then would send RST and throw away the unsent bytes, close frame included.
        int size = 24 << 20;
        ServerConfig config = new ServerConfig().port(0).maxMessageSize(32 << 20).maxFramePayload(32 << 20)
                .readPauseBytes(256L << 20).outboundLimitBytes(256L << 20);
        WebSocketServer server = new WebSocketServer(config, new EchoListener()).start();
        try (RawClient c = RawClient.open(server.port())) {
            Thread sender = new Thread(() -> {
                try {
                    c.send(c.writer.frame(OpCode.BINARY, true, new byte[size], 0, size));    // echoed back: 24 MiB queued
                    Thread.sleep(500);
                    c.send(c.writer.frame(3, true, new byte[0], 0, 0));                      // reserved opcode: 1002
                    c.send(new byte[256 * 1024]);                                           // never read by the server
                } catch (IOException | InterruptedException ignored) {
                    // the server may close before all of it is taken
                }
            });
            sender.start();
            sender.join(30_000);
            Thread.sleep(500);
            long echoed = 0;
            Frame f = c.readFrame(30_000);
            while (f != null && f.opcode() != OpCode.CLOSE) {
                echoed += f.payload().length;      // the echo, in 1 MiB fragments
                f = c.readFrame(30_000);
            }
            assertEquals(size, echoed, "the echo, whole");
            assertTrue(f != null && f.opcode() == OpCode.CLOSE, "the close frame was lost, got " + f);
            assertEquals(1002, code(f));
        } finally {
            server.stop();
        }
    }

    @Test
    void afterOurCloseWhileReadingWasPausedThePeersReplyIsRead() throws Exception {
        RecordingListener listener = new RecordingListener();
        ServerConfig config = new ServerConfig().port(0).readPauseBytes(64 * 1024).closeTimeoutMillis(90_000)
                .outboundLimitBytes(256L << 20);
        WebSocketServer server = new WebSocketServer(config, listener).start();
        try (RawClient c = RawClient.open(server.port())) {
            while (listener.opened.isEmpty()) {
                Thread.sleep(5);
            }
            WebSocketConnection conn = listener.opened.get(0);
            for (int i = 0; i < 32; i++) {
                conn.sendBinary(new byte[1 << 20]);      // 32 MiB, more than loopback buffers hold: reading pauses
            }
            c.send(c.writer.frame(OpCode.TEXT, true, new byte[] {'x'}, 0, 1));   // arrives while paused
            Thread.sleep(200);
            conn.close(1000, "done");
            Frame f;
            do {
                f = c.readFrame(20_000);
            } while (f != null && f.opcode() != OpCode.CLOSE);
            assertTrue(f != null, "no close frame");
            c.send(c.writer.close(1000, ""));
            assertEquals(1000, listener.closeOf(conn.id()).get(30, TimeUnit.SECONDS),
                    "the server must read the peer's close reply, not wait for its 90 s close timeout");
            assertTrue(c.closedByServerWithin(20_000));
        } finally {
            server.stop();
        }
    }

    @Test
    void ioErrorsReachOnErrorAndListenerExceptionsAreLogged() throws Exception {
        LogCapture log = new LogCapture(WebSocketServer.class);
        List<LogRecord> records = log.records;
        CompletableFuture<Throwable> error = new CompletableFuture<>();
        RecordingListener listener = new RecordingListener() {
            @Override
            public void onText(WebSocketConnection connection, String text) {
                if (text.equals("boom")) {
                    throw new IllegalStateException("boom from the listener");
                }
                super.onText(connection, text);
            }

            @Override
            public void onError(WebSocketConnection connection, Throwable e) {
                error.complete(e);
            }
        };
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), listener).start();
        try {
            RawClient dropper = RawClient.open(server.port());
            while (listener.opened.isEmpty()) {
                Thread.sleep(5);
            }
            dropper.abort(true);        // RST: the server's read fails with an I/O error
            assertTrue(error.get(20, TimeUnit.SECONDS) instanceof IOException, "onError is told of I/O errors too");
            try (RawClient c = RawClient.open(server.port())) {
                c.send(c.writer.frame(OpCode.TEXT, true, "boom".getBytes(), 0, 4));
                Frame f = c.readFrame(20_000);
                assertEquals(1011, code(f));
            }
            assertTrue(records.stream().anyMatch(r -> r.getThrown() != null && "boom from the listener".equals(r.getThrown().getMessage())),
                    "the listener's exception is logged with its stack trace");
        } finally {
            log.close();
            server.stop();
        }
    }
}
