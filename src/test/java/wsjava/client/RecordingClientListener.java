package wsjava.client;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/** Records what a client connection hears, for tests to wait on. */
final class RecordingClientListener implements WebSocketListener {

    final BlockingQueue<Object> messages = new LinkedBlockingQueue<>();
    final BlockingQueue<byte[]> pongs = new LinkedBlockingQueue<>();
    final BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
    final CompletableFuture<int[]> closeCode = new CompletableFuture<>();
    volatile String closeReason;

    @Override
    public void onText(WebSocketConnection connection, String text) {
        messages.add(text);
    }

    @Override
    public void onBinary(WebSocketConnection connection, byte[] data) {
        messages.add(data);
    }

    @Override
    public void onPong(WebSocketConnection connection, byte[] payload) {
        pongs.add(payload);
    }

    @Override
    public void onError(WebSocketConnection connection, Throwable error) {
        errors.add(error);
    }

    @Override
    public void onClose(WebSocketConnection connection, int code, String reason) {
        closeReason = reason;
        closeCode.complete(new int[] {code});
    }

    Object next() throws InterruptedException {
        Object m = messages.poll(20, TimeUnit.SECONDS);
        if (m == null) {
            throw new AssertionError("no message within 20 s");
        }
        return m;
    }

    int awaitClose() throws Exception {
        return closeCode.get(20, TimeUnit.SECONDS)[0];
    }
}
