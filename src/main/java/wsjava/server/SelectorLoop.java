package wsjava.server;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.List;
import java.util.function.Consumer;

/** An I/O thread on NIO: a {@link Selector} over its connections' channels (and the listener's, on the first). */
final class SelectorLoop extends IoLoop {

    private final Selector selector;
    private final Consumer<SelectionKey> onReady = this::ready;

    SelectorLoop(WebSocketServer server, ServerLifecycle lifecycle, int index) throws IOException {
        super(server, lifecycle, index);
        this.selector = Selector.open();
    }

    @Override
    void wakeup() {
        selector.wakeup();
    }

    @Override
    void watchListener() throws IOException {
        ((NioListener) acceptor.listening()).register(selector, acceptor);
    }

    @Override
    boolean watch(ServerConnection connection) {
        NioSocket socket = (NioSocket) connection.socket;
        try {
            socket.registered(socket.channel().register(selector, SelectionKey.OP_READ, connection));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The attachments of the selector's valid keys (a connection cancels its key as it closes). The
     * selector keeps them anyway, so a set of our own would only cost every connection an entry.
     */
    @Override
    List<ServerConnection> connections(List<ServerConnection> into) {
        for (SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof ServerConnection) {
                into.add((ServerConnection) key.attachment());
            }
        }
        return into;
    }

    @Override
    void poll(long timeoutMillis) throws IOException {
        // select(Consumer) hands each ready key over as found: no selected-key HashSet to fill,
        // iterate and empty (JFR, 64 B echo: its nodes were an eighth of the loop's allocation).
        if (timeoutMillis > 0) {
            selector.select(onReady, timeoutMillis);
        } else {
            selector.selectNow(onReady);
        }
    }

    private void ready(SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        if (key.attachment() instanceof Acceptor) {
            readyListener();
            return;
        }
        int ops = key.readyOps();
        ready((ServerConnection) key.attachment(), (ops & SelectionKey.OP_READ) != 0, (ops & SelectionKey.OP_WRITE) != 0);
    }

    @Override
    void release() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
