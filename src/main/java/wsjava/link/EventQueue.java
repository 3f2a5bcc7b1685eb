package wsjava.link;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import wsjava.server.WebSocketConnection;
import wsjava.client.ReconnectListener;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;

/**
 * Turns server events into a queue that the Wolfram kernel drains on its main thread, so no Java
 * thread ever calls into the kernel (J/Link's link is not thread-safe). Binary payloads are
 * Base64-encoded here, on the I/O thread, so WL gets Strings only.
 *
 * <p>Event types, in the type field of {@link #poll}'s layout: "Open", "Text", "Text8" (text beyond
 * the BMP, as Base64 of its UTF-8), "Binary" (Base64), "Close" (code field: the close code; data:
 * the reason), "Error" (data: the error), and for a client with reconnect on: "Reconnecting" (code
 * field: the attempt number, 1 for the first after a drop; data: the delay before it in
 * milliseconds, as a decimal string), "Reopened" (the info fields filled as for "Open": path,
 * query, remote address, Origin, subprotocol of the new connection) and "GaveUp" (data: the
 * reason; a "Close" with code 1006 follows). A reopened connection keeps its connection id.
 *
 * <p>The queue is bounded by the heap bytes it holds without dropping anything: once an event takes
 * it past {@code maxQueuedBytes} (a kernel that is not keeping up), every connection of that server
 * stops being read, each before it assembles another message ({@link WebSocketServer#suspendReading}),
 * until the kernel has drained the queue to half of that (TCP pushes back on the clients meanwhile).
 * The event that crossed the limit is kept, so the queue holds at most the limit plus the messages
 * that were being completed at that moment (which the server's inbound budget bounds). A client
 * connection (which has no server) stops by itself.
 */
public final class EventQueue implements ReconnectListener {

    /**
     * Fields per event in {@link #poll}'s flat array: type, connection id, milliseconds since the
     * epoch, close code (the attempt number for "Reconnecting"), data, then the connection's path,
     * query, remote address, Origin and subprotocol (filled for "Open" and "Reopened" only, so WL
     * keeps what was known at open even after a close).
     */
    public static final int FIELDS = 10;

    private static final String[] NO_INFO = {"", "", "", "", ""};

    private static final class Event {
        final String type;
        final long connection;
        final long millis = System.currentTimeMillis();
        final int code;
        final String data;
        final String[] info;

        Event(String type, long connection, int code, String data, String[] info) {
            this.type = type;
            this.connection = connection;
            this.code = code;
            this.data = data;
            this.info = info;
        }

        /** What the event holds on the heap: its object and queue node, its strings (Base64 one byte a char, text two at most), the info array. */
        long size() {
            long bytes = EVENT_BYTES + (type.equals("Binary") ? HeapCost.latin1String(data) : HeapCost.string(data));
            if (info != NO_INFO) {
                bytes += HeapCost.array(info.length);
                for (String s : info) {
                    bytes += HeapCost.string(s);
                }
            }
            return bytes;
        }
    }

    /** An Event object and its queue node. */
    private static final long EVENT_BYTES = 48 + 24;

    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final long maxQueuedBytes;
    /** The last batch taken: counted in the queue's bytes until the kernel asks for the next one. */
    private long inKernelBytes;
    /** What was stopped for the queue: servers, or client connections. */
    private final Set<Object> suspended = ConcurrentHashMap.newKeySet();

    /** A queue limited to {@link #defaultLimit()}: a quarter of the heap. */
    public EventQueue() {
        this(defaultLimit());
    }

    public EventQueue(long maxQueuedBytes) {
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /** The default limit: a quarter of this JVM's maximum heap, for this queue alone (in WL each server and client has its own). */
    public static long defaultLimit() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    private void offer(WebSocketConnection connection, Event event) {
        events.add(event);
        if (queuedBytes.addAndGet(event.size()) > maxQueuedBytes && !event.type.equals("Close")) {
            synchronized (suspended) {     // with resumeIfDrained: a suspend is never queued after its resume
                WebSocketServer server = connection.server();
                if (suspended.add(server != null ? server : connection)) {
                    if (server != null) {
                        server.suspendReading();
                    } else {
                        connection.suspendReading();
                    }
                }
            }
        }
    }

    /** Once the kernel has caught up, what was stopped for it is read again. */
    private void resumeIfDrained() {
        if (suspended.isEmpty() || queuedBytes.get() > maxQueuedBytes / 2) {
            return;
        }
        synchronized (suspended) {
            for (Object stopped : suspended) {
                suspended.remove(stopped);
                if (stopped instanceof WebSocketServer) {
                    ((WebSocketServer) stopped).resumeReading();
                } else {
                    ((WebSocketConnection) stopped).resumeReading();
                }
            }
        }
    }

    /** Servers (or client connections) not being read because the queue is full (for tests and statistics). */
    public int suspendedConnections() {
        return suspended.size();
    }

    /** Heap bytes the queued events hold now. */
    public long queuedBytes() {
        return queuedBytes.get();
    }

    @Override
    public void onOpen(WebSocketConnection c) {
        offer(c, new Event("Open", c.id(), 0, "", info(c)));
    }

    private static String[] info(WebSocketConnection c) {
        String origin = c.header("Origin");
        return new String[] {c.path(), c.query(), c.remoteAddress(), origin == null ? "" : origin, c.subprotocol() == null ? "" : c.subprotocol()};
    }

    @Override
    public void onReconnecting(WebSocketConnection c, int attempt, long delayMillis) {
        offer(c, new Event("Reconnecting", c.id(), attempt, Long.toString(delayMillis), NO_INFO));
    }

    @Override
    public void onReopened(WebSocketConnection c) {
        offer(c, new Event("Reopened", c.id(), 0, "", info(c)));
    }

    @Override
    public void onGaveUp(WebSocketConnection c, String reason) {
        offer(c, new Event("GaveUp", c.id(), 0, reason, NO_INFO));
    }

    /**
     * Text with a character beyond the BMP goes as "Text8", its UTF-8 bytes in Base64: J/Link moves
     * Strings as UTF-16, and WL must never be handed a surrogate pair (its UTF-8 would be CESU-8).
     */
    @Override
    public void onText(WebSocketConnection c, String text) {
        offer(c, hasSurrogate(text)
                ? new Event("Text8", c.id(), 0, Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)), NO_INFO)
                : new Event("Text", c.id(), 0, text, NO_INFO));
    }

    static boolean hasSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void onBinary(WebSocketConnection c, byte[] data) {
        offer(c, new Event("Binary", c.id(), 0, Base64.getEncoder().encodeToString(data), NO_INFO));
    }

    @Override
    public void onClose(WebSocketConnection c, int code, String reason) {
        if (c.server() == null) {
            suspended.remove(c);
        }
        offer(c, new Event("Close", c.id(), code, reason, NO_INFO));
    }

    @Override
    public void onError(WebSocketConnection c, Throwable error) {
        offer(c, new Event("Error", c.id(), 0, String.valueOf(error), NO_INFO));
    }

    /**
     * Waits up to {@code timeoutMillis} for a first event, then takes up to {@code max} events, and
     * at most a quarter of the queue's limit in bytes after the first (a batch is held whole while
     * the kernel handles it, so it stays counted until the next poll).
     * Returns them flat, {@link #FIELDS} strings each (data is the text, Base64 for binary and "Text8", the
     * reason for Close, the error for Error). One J/Link call moves a whole batch.
     */
    public synchronized String[] poll(int timeoutMillis, int max) throws InterruptedException {
        queuedBytes.addAndGet(-inKernelBytes);     // the kernel asks again: it is done with the last batch
        inKernelBytes = 0;
        List<Event> batch = new ArrayList<>();
        Event first = timeoutMillis > 0 ? events.poll(timeoutMillis, TimeUnit.MILLISECONDS) : events.poll();
        if (first == null) {
            resumeIfDrained();     // a connection stopped just as the queue emptied must not wait for more events
            return new String[0];
        }
        batch.add(first);
        long batchBytes = first.size();
        Event next;
        while (batch.size() < max && (next = events.peek()) != null && batchBytes + next.size() <= maxQueuedBytes / 4) {
            batch.add(events.poll());       // only this thread takes events, so the one peeked is the one taken
            batchBytes += next.size();
        }
        String[] flat = new String[batch.size() * FIELDS];
        long bytes = 0;
        for (int i = 0; i < batch.size(); i++) {
            Event e = batch.get(i);
            int at = i * FIELDS;
            flat[at] = e.type;
            flat[at + 1] = Long.toString(e.connection);
            flat[at + 2] = Long.toString(e.millis);
            flat[at + 3] = Integer.toString(e.code);
            flat[at + 4] = e.data;
            System.arraycopy(e.info, 0, flat, at + 5, e.info.length);
            bytes += e.size();
        }
        inKernelBytes = bytes;      // still counted until the next poll: the kernel holds the batch meanwhile
        resumeIfDrained();
        return flat;
    }

    public int size() {
        return events.size();
    }
}
