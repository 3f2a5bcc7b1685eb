package wsjava.server;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;
import wsjava.cli.EchoListener;

/** An echo listener that also records opens, closes and errors, for tests to wait on. */
class RecordingListener implements WebSocketListener {

    final List<WebSocketConnection> opened = new CopyOnWriteArrayList<>();
    final Map<Long, CompletableFuture<Integer>> closeCodes = new ConcurrentHashMap<>();
    final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final EchoListener echo = new EchoListener();

    CompletableFuture<Integer> closeOf(long id) {
        return closeCodes.computeIfAbsent(id, k -> new CompletableFuture<>());
    }

    @Override
    public void onOpen(WebSocketConnection connection) {
        opened.add(connection);
    }

    @Override
    public void onText(WebSocketConnection connection, String text) {
        echo.onText(connection, text);
    }

    @Override
    public void onBinary(WebSocketConnection connection, java.nio.ByteBuffer message) {
        echo.onBinary(connection, message);
    }

    @Override
    public void onClose(WebSocketConnection connection, int code, String reason) {
        closeOf(connection.id()).complete(code);
    }

    @Override
    public void onError(WebSocketConnection connection, Throwable error) {
        errors.add(error);
    }
}
