package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;

/** A program can wait for its client's close: the future completes after onClose has returned. */
@Timeout(30)
class CloseFutureTest {

    private static final class Closing implements ReconnectListener {
        final AtomicBoolean onCloseDone = new AtomicBoolean();

        @Override
        public void onClose(WebSocketConnection c, int code, String reason) {
            try {
                Thread.sleep(200);          // a slow onClose: the future must wait for it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            onCloseDone.set(true);
        }
    }

    @Test
    void closeFutureCompletesAfterTheCloseHandshakeAndOnClose() throws Exception {
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start()) {
            Closing heard = new Closing();
            WebSocketConnection c = WebSocketClient.connect(URI.create(server.url()), heard, new ClientConfig());
            assertTrue(!c.closeFuture().isDone());
            long started = System.nanoTime();
            c.close(1000, "bye");
            assertEquals(1000, c.closeFuture().get(10, TimeUnit.SECONDS));
            assertTrue(heard.onCloseDone.get(), "onClose ran before the future completed");
            assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(4), "the server answered; no close timeout");
        }
    }

    @Test
    void aReconnectingClientsFutureCompletesWhenItEnds() throws Exception {
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start()) {
            Closing heard = new Closing();
            ReconnectingClient feed = ReconnectingClient.connect(URI.create(server.url()), heard, new ClientConfig(), new ReconnectPolicy());
            feed.close();
            assertEquals(1000, feed.closeFuture().get(10, TimeUnit.SECONDS));
            assertTrue(heard.onCloseDone.get());
        }
    }

    @Test
    void aServersConnectionSaysItReportsThroughOnClose() {
        WebSocketConnection fake = new WebSocketListenerFreeConnection();
        ExecutionException e = assertThrows(ExecutionException.class, () -> fake.closeFuture().get());
        assertTrue(e.getCause() instanceof UnsupportedOperationException);
    }

    /** Only what the interface leaves abstract, to reach its default. */
    private static final class WebSocketListenerFreeConnection implements WebSocketConnection {
        @Override public long id() { return 0; }
        @Override public boolean isOpen() { return false; }
        @Override public String path() { return "/"; }
        @Override public String query() { return ""; }
        @Override public String header(String name) { return null; }
        @Override public java.util.Map<String, String> headers() { return java.util.Map.of(); }
        @Override public String subprotocol() { return null; }
        @Override public String remoteAddress() { return ""; }
        @Override public WebSocketServer server() { return null; }
        @Override public long queuedBytes() { return 0; }
        @Override public boolean sendText(String text) { return false; }
        @Override public boolean sendText(byte[] utf8) { return false; }
        @Override public boolean sendBinary(byte[] data, int off, int len) { return false; }
        @Override public java.util.concurrent.CompletableFuture<Void> sendTextAsync(String text) { return null; }
        @Override public java.util.concurrent.CompletableFuture<Void> sendBinaryAsync(byte[] data, int off, int len) { return null; }
        @Override public boolean isWritable() { return false; }
        @Override public boolean ping(byte[] payload) { return false; }
        @Override public void close(int code, String reason) { }
        @Override public void suspendReading() { }
        @Override public void resumeReading() { }
        @Override public Object attachment() { return null; }
        @Override public void attach(Object value) { }
    }
}
