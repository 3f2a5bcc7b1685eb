package wsjava.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A client connection's sending half: whole frames queued from any thread and written in order by
 * one writer thread, so a send never blocks on a server that reads slowly. Nothing may follow the
 * close frame. Closing the socket is the writer's last act, or a timer's when the writer is stuck.
 *
 * <p>It is bounded, counting each frame at its real cost (bytes plus a fixed overhead): up to
 * {@link #PENDING_PONGS} pongs wait, and past that the newest takes the place of the last one (RFC
 * 6455 section 5.5.3), however many pings a server sends; the
 * reader waits ({@link #awaitRoom}) while more than the read-pause threshold waits to be written, so
 * TCP pushes back on a server that sends without reading; and a send that would take it past the hard
 * limit is refused and reported ({@code overLimit}: the connection fails with 1008).
 */
final class ClientOutbox {

    /** Pongs that may wait at once, each for its own ping; past this only the latest ping is answered. */
    static final int PENDING_PONGS = 16;

    /** A frame's array header, its item and its queue node, rounded up. */
    static final int ITEM_OVERHEAD = 96;

    private static final ScheduledExecutorService TIMERS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "wsjava-client-timer");
        t.setDaemon(true);
        return t;
    });
    private static final byte[] STOP = new byte[0];

    private static final class Item {
        /** Replaced for a pong not yet taken by the writer; read and replaced under the outbox's lock. */
        byte[] bytes;
        final CompletableFuture<Void> done;
        final boolean pong;

        Item(byte[] bytes, CompletableFuture<Void> done) {
            this(bytes, done, false);
        }

        Item(byte[] bytes, CompletableFuture<Void> done, boolean pong) {
            this.bytes = bytes;
            this.done = done;
            this.pong = pong;
        }
    }

    private final Socket socket;
    private final Consumer<IOException> onError;
    private final Runnable overLimit;
    private final long readPauseBytes;
    private final long limitBytes;
    private final LinkedBlockingQueue<Item> queue = new LinkedBlockingQueue<>();
    private long queuedBytes;
    private long heldBytes;
    /** The last pong queued and not taken by the writer, and how many such wait. */
    private Item lastPong;
    private int pendingPongs;
    private boolean closeQueued;
    private boolean stopQueued;

    ClientOutbox(Socket socket, Consumer<IOException> onError, Runnable overLimit, long readPauseBytes, long limitBytes) {
        this.socket = socket;
        this.onError = onError;
        this.overLimit = overLimit;
        this.readPauseBytes = readPauseBytes;
        this.limitBytes = limitBytes;
    }

    void start(String name) {
        Thread writer = new Thread(this::writeLoop, name);
        writer.setDaemon(true);
        writer.start();
    }

    synchronized long queuedBytes() {
        return queuedBytes;
    }

    synchronized long heldBytes() {
        return heldBytes;
    }

    /** Queues a frame; false after the close frame, or past the hard limit (then {@code overLimit} runs). */
    boolean add(byte[] frame, CompletableFuture<Void> done) {
        synchronized (this) {
            if (closeQueued) {
                return false;
            }
            if (heldBytes + frame.length + ITEM_OVERHEAD <= limitBytes) {
                push(new Item(frame, done));
                return true;
            }
        }
        overLimit.run();
        return false;
    }

    /** Queues a pong; once {@link #PENDING_PONGS} wait, in place of the last one the writer has not taken yet. */
    synchronized void addPong(byte[] frame) {
        if (closeQueued) {
            return;
        }
        if (pendingPongs >= PENDING_PONGS && lastPong != null) {
            queuedBytes += frame.length - lastPong.bytes.length;
            heldBytes += frame.length - lastPong.bytes.length;
            lastPong.bytes = frame;
        } else {
            lastPong = new Item(frame, null, true);
            pendingPongs++;
            push(lastPong);
        }
    }

    private void push(Item item) {
        queuedBytes += item.bytes.length;
        heldBytes += item.bytes.length + ITEM_OVERHEAD;
        queue.add(item);
    }

    /** The close frame: the last thing written. */
    synchronized void addLast(byte[] closeFrame) {
        if (!closeQueued) {
            closeQueued = true;
            push(new Item(closeFrame, null));
        }
    }

    /** The reader's wait: while more than the read-pause threshold waits to be written, read nothing more. */
    synchronized void awaitRoom() throws InterruptedException {
        while (heldBytes > readPauseBytes && !stopQueued) {
            wait(1_000);
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
            notifyAll();
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

    /** Runs {@code task} after {@code millis} unless the returned handle is cancelled first. */
    static java.util.concurrent.ScheduledFuture<?> schedule(Runnable task, long millis) {
        return TIMERS.schedule(task, millis, TimeUnit.MILLISECONDS);
    }

    private void writeLoop() {
        try {
            OutputStream out = socket.getOutputStream();
            while (true) {
                Item item = queue.take();
                if (item.bytes == STOP) {
                    break;
                }
                byte[] bytes = taken(item);
                out.write(bytes);
                out.flush();
                written(bytes.length);
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

    /** The writer takes an item: a pong is no longer replaceable from here on. */
    private synchronized byte[] taken(Item item) {
        if (item.pong) {
            pendingPongs--;
            if (item == lastPong) {
                lastPong = null;
            }
        }
        return item.bytes;
    }

    private synchronized void written(int length) {
        queuedBytes -= length;
        heldBytes -= length + ITEM_OVERHEAD;
        notifyAll();
    }

    private void closeSocket() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already gone
        }
    }
}
