package wsjava.server;

import java.lang.System.Logger.Level;
import wsjava.protocol.MessageHandler;

/**
 * Hands a connection's messages and events to the application's listener, each call contained:
 * whatever a listener throws, an Error too, fails only its own connection (1011) and is logged;
 * the I/O loop goes on. Data that arrives after our close frame is not delivered.
 */
final class ListenerCalls implements MessageHandler {

    private final ServerConnection machine;
    /** What the listener is given: the connection's public face. */
    private final WebSocketConnection connection;
    private final WebSocketListener listener;
    private final ServerStats stats;

    ListenerCalls(ServerConnection machine, WebSocketConnection connection, WebSocketListener listener, ServerStats stats) {
        this.machine = machine;
        this.connection = connection;
        this.listener = listener;
        this.stats = stats;
    }

    /** onOpen; false when the listener failed (the connection is failing then). */
    boolean opened() {
        try {
            listener.onOpen(connection);
            return true;
        } catch (Throwable e) {
            machine.listenerFailed(e);
            return false;
        }
    }

    @Override
    public void onText(String text) {
        if (machine.isOpen()) {
            stats.messagesIn.increment();
            try {
                listener.onText(connection, text);
            } catch (Throwable e) {
                machine.listenerFailed(e);
            }
        }
    }

    @Override
    public void onBinary(byte[] data) {
        if (machine.isOpen()) {
            stats.messagesIn.increment();
            try {
                listener.onBinary(connection, data);
            } catch (Throwable e) {
                machine.listenerFailed(e);
            }
        }
    }

    @Override
    public void onPing(byte[] payload) {
        machine.pong(payload);
    }

    @Override
    public void onPong(byte[] payload) {
        if (machine.isOpen()) {
            try {
                listener.onPong(connection, payload);
            } catch (Throwable e) {
                machine.listenerFailed(e);
            }
        }
    }

    @Override
    public void onClose(int code, String reason) {
        machine.peerClosed(code, reason);
    }

    void writable() {
        try {
            listener.onWritable(connection);
        } catch (Throwable e) {
            machine.listenerFailed(e);
        }
    }

    void error(Throwable error) {
        try {
            listener.onError(connection, error);
        } catch (Throwable e) {   // the connection is failing anyway; the loop must not
            ServerLog.log(Level.WARNING, "listener onError failed on " + connection, e);
        }
    }

    void closed(int code, String reason) {
        try {
            listener.onClose(connection, code, reason);
        } catch (Throwable e) {   // the connection is gone; a failing onClose has nothing left to break
            ServerLog.log(Level.WARNING, "listener onClose failed on " + connection, e);
        }
    }
}
