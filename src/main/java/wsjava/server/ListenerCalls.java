package wsjava.server;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
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
    /** The listener reads binary messages as buffers, so an assembled array is wrapped, not copied. */
    private final boolean takesBuffers;

    /** Whether a listener class overrides the {@code ByteBuffer} variant of onBinary. */
    private static final ClassValue<Boolean> TAKES_BUFFERS = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("onBinary", WebSocketConnection.class, ByteBuffer.class).getDeclaringClass() != WebSocketListener.class;
            } catch (NoSuchMethodException e) {
                return false;
            }
        }
    };

    /** During onBinary: the view of an assembled message (its own array, or a pooled buffer), which nobody reuses. */
    private ByteBuffer ownedView;

    ListenerCalls(ServerConnection machine, WebSocketConnection connection, WebSocketListener listener) {
        this.machine = machine;
        this.connection = connection;
        this.listener = listener;
        this.takesBuffers = TAKES_BUFFERS.get(listener.getClass());
    }

    /** onOpen; false when the listener failed (the connection is failing then). */
    boolean opened() {
        try {
            listener.onOpen(connection);
            return true;
        } catch (Throwable e) {
            failed(e);
            return false;
        }
    }

    @Override
    public void onText(String text) {
        if (machine.isOpen()) {
            machine.server.stats().count(machine.loop, LoopCounters.MESSAGES_IN, 1);
            try {
                listener.onText(connection, text);
            } catch (Throwable e) {
                failed(e);
            }
        }
    }

    @Override
    public void onBinary(byte[] data) {
        if (machine.isOpen()) {
            machine.server.stats().count(machine.loop, LoopCounters.MESSAGES_IN, 1);
            try {
                if (takesBuffers) {
                    ownedView = ByteBuffer.wrap(data).asReadOnlyBuffer();
                    listener.onBinary(connection, ownedView);
                } else {
                    listener.onBinary(connection, data);
                }
            } catch (Throwable e) {
                failed(e);
            } finally {
                ownedView = null;
            }
        }
    }

    /** Whether binary messages go to the listener as buffers (then they may be assembled in pooled ones). */
    boolean takesBuffers() {
        return takesBuffers;
    }

    /**
     * Whether {@code buffer} is the view of an assembled message being handed to the listener now:
     * its bytes belong to nobody else, so the first send of it needs no copy. True once per message.
     */
    boolean takeOwnedView(ByteBuffer buffer) {
        if (buffer != ownedView || ownedView == null) {
            return false;
        }
        ownedView = null;
        return true;
    }

    /** A message assembled in a pooled buffer: lent to the listener, and sendable as it is. */
    @Override
    public void onAssembledBinary(ByteBuffer view) {
        if (machine.isOpen()) {
            machine.server.stats().count(machine.loop, LoopCounters.MESSAGES_IN, 1);
            try {
                ownedView = view;
                listener.onBinary(connection, view);
            } catch (Throwable e) {
                failed(e);
            } finally {
                ownedView = null;
            }
        }
    }

    /** A message that arrived whole in one read: a view of the read buffer (the listener's default copies it). */
    @Override
    public void onBinary(ByteBuffer view) {
        if (machine.isOpen()) {
            machine.server.stats().count(machine.loop, LoopCounters.MESSAGES_IN, 1);
            try {
                listener.onBinary(connection, view);
            } catch (Throwable e) {
                failed(e);
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
                failed(e);
            }
        }
    }

    @Override
    public void onClose(int code, String reason) {
        machine.peerClosed(code, reason);
    }

    /** A listener call threw: its connection fails with 1011; out of memory goes to the I/O thread, which sheds the connection without allocating. */
    private void failed(Throwable e) {
        if (e instanceof OutOfMemoryError) {
            throw (OutOfMemoryError) e;
        }
        machine.listenerFailed(e);
    }

    void writable() {
        try {
            listener.onWritable(connection);
        } catch (Throwable e) {
            failed(e);
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
