package wsjava.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A client connection's sending half: whole frames queued from any thread and written in order by
 * one writer thread, so a send never blocks on a server that reads slowly. Nothing may follow the
 * close frame. Closing the socket is the writer's last act, or a timer's when the writer is stuck.
 */
final class ClientOutbox {

    private static final ScheduledExecutorService TIMERS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "wsjava-client-timer");
        t.setDaemon(true);
        return t;
    });
    private static final byte[] STOP = new byte[0];

    private static final class Item {
        final byte[] bytes;
        final CompletableFuture<Void> done;

        Item(byte[] bytes, CompletableFuture<Void> done) {
            this.bytes = bytes;
            this.done = done;
        }
    }

    private final Socket socket;
    private final Consumer<IOException> onError;
    private final LinkedBlockingQueue<Item> queue = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private boolean closeQueued;
    private boolean stopQueued;

    ClientOutbox(Socket socket, Consumer<IOException> onError) {
        this.socket = socket;
        this.onError = onError;
    }

    void start(String name) {
        Thread writer = new Thread(this::writeLoop, name);
        writer.setDaemon(true);
        writer.start();
    }

    long queuedBytes() {
        return queuedBytes.get();
    }

    synchronized boolean add(byte[] frame, CompletableFuture<Void> done) {
        if (closeQueued) {
            return false;
        }
        queuedBytes.addAndGet(frame.length);
        queue.add(new Item(frame, done));
        return true;
    }

    /** The close frame: the last thing written. */
    synchronized void addLast(byte[] closeFrame) {
        if (!closeQueued) {
            closeQueued = true;
            queue.add(new Item(closeFrame, null));
        }
    }

    /** Writes what is queued, then closes the socket; after {@code timeoutMillis} the socket is closed regardless. */
    void finishThenClose(int timeoutMillis) {
        synchronized (this) {
            closeQueued = true;
            if (stopQueued) {
                return;
            }
            stopQueued = true;
        }
        queue.add(new Item(STOP, null));
        TIMERS.schedule(this::closeSocket, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** Runs {@code onTimeout} if the socket is still open after {@code timeoutMillis}. */
    void closeAfter(int timeoutMillis, Runnable onTimeout) {
        TIMERS.schedule(() -> {
            if (!socket.isClosed()) {
                onTimeout.run();
            }
        }, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private void writeLoop() {
        try {
            OutputStream out = socket.getOutputStream();
            while (true) {
                Item item = queue.take();
                if (item.bytes == STOP) {
                    break;
                }
                out.write(item.bytes);
                out.flush();
                queuedBytes.addAndGet(-item.bytes.length);
                if (item.done != null) {
                    item.done.complete(null);
                }
            }
        } catch (IOException e) {
            onError.accept(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeSocket();
        IOException notSent = new IOException("the connection closed before the message was sent");
        for (Item item : queue) {
            if (item.done != null) {
                item.done.completeExceptionally(notSent);
            }
        }
    }

    private void closeSocket() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already gone
        }
    }
}
