package wsjava.link;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import wsjava.server.internal.EventRoom;
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
 * <p>The queue is bounded by the heap bytes it holds, without dropping anything. Its books
 * ({@link QueueRoom}) count queued events at their heap cost, the batch the kernel holds until it
 * polls again, room reserved by messages in progress, and room every open connection keeps for the
 * events that end it. A server fed from it ({@link EventRoom}):
 * <ul>
 *   <li>reserves room for each message as it is assembled (twice its bytes plus
 *       {@link EventRoom#EVENT_BYTES}, completing bytes included), so messages in progress never
 *       take it past its limit;</li>
 *   <li>upgrades a connection only while there is room for its "Open" (each info field cut at
 *       {@link QueueRoom#INFO_CHARS} characters, at most {@link QueueRoom#OPEN_BYTES}) and its
 *       tail ({@link QueueRoom#TAIL_BYTES}: a "Close" and two "Error"s, texts cut at
 *       {@link QueueRoom#TAIL_TEXT_CHARS});</li>
 *   <li>stops starting messages and reading request heads once the queue is over its limit or
 *       refuses a reservation ({@link WebSocketServer#suspendReading}); open connections are then
 *       read only for a close or FIN, up to 2 KiB each. Reading resumes once the kernel has drained
 *       the events to half the limit (TCP pushes back on the clients meanwhile).</li>
 * </ul>
 * So what it holds is at most: the limit, plus one "Open" and its tail per I/O thread (each may
 * have checked for room just before another thread's event filled it), plus one message's event
 * past the limit (the overdraft, {@link QueueRoom}: twice the server's message size limit plus
 * {@link EventRoom#EVENT_BYTES}). A client connection (which has no server) stops by itself before
 * its next message: its queue holds at most the limit plus one message's event.
 */
public final class EventQueue implements ReconnectListener, EventRoom {

    /**
     * Fields per event in {@link #poll}'s flat array: type, connection id, milliseconds since the
     * epoch, close code (the attempt number for "Reconnecting"), data, then the connection's path,
     * query, remote address, Origin and subprotocol (filled for "Open" and "Reopened" only, so WL
     * keeps what was known at open even after a close).
     */
    public static final int FIELDS = 10;

    private static final String[] NO_INFO = QueuedEvent.NO_INFO;

    /** An Event object and its queue node. */
    static final long EVENT_BYTES = 48 + 24;

    private final LinkedBlockingQueue<QueuedEvent> events = new LinkedBlockingQueue<>();
    private final QueueRoom room;
    private final long maxQueuedBytes;
    /** The server fed from this queue, or null (a client's queue). */
    private volatile WebSocketServer server;
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
        this.room = new QueueRoom(maxQueuedBytes);
    }

    /** The default limit: a quarter of this JVM's maximum heap, for this queue alone (in WL each server and client has its own). */
    public static long defaultLimit() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    private void offer(WebSocketConnection connection, QueuedEvent event) {
        room.events(event.size());
        boolean ofServer = connection.server() != null;
        if (ofServer && event.type.equals("Open")) {
            room.tail(true);         // its Close (and Errors) will come whatever the queue holds then
        } else if (ofServer && event.type.equals("Close")) {
            room.tail(false);
        }
        if (room.over() && !event.type.equals("Close")) {
            suspend(ofServer ? connection.server() : connection);
        }
        events.add(event);      // last: counted and any stop made first, a poll that takes it sees the stop
    }

    private void suspend(Object stopped) {
        synchronized (suspended) {     // with resumeIfDrained: a suspend is never queued after its resume
            if (suspended.add(stopped)) {
                if (stopped instanceof WebSocketServer) {
                    ((WebSocketServer) stopped).suspendReading();
                } else {
                    ((WebSocketConnection) stopped).suspendReading();
                }
            }
        }
    }

    @Override
    public void serving(WebSocketServer fed) {
        server = fed;
    }

    @Override
    public boolean tryReserve(Object holder, long bytes) {
        if (room.tryReserve(holder, bytes)) {
            return true;
        }
        WebSocketServer fed = server;
        if (fed != null) {
            suspend(fed);            // the message waits: it goes on when reading resumes
        }
        return false;
    }

    @Override
    public void release(Object holder, long bytes) {
        room.release(holder, bytes);
    }

    @Override
    public boolean mayOpen() {
        return room.mayOpen();
    }

    /** Once the kernel has caught up, what was stopped for it is read again. */
    private void resumeIfDrained() {
        if (suspended.isEmpty() || !room.drained()) {
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

    /** Heap bytes the queued events hold now (with the batch the kernel was last given). */
    public long queuedBytes() {
        return room.events();
    }

    /** What the queue may come to hold: its events, the room messages in progress reserved, and open connections' tails. */
    public long heldBytes() {
        return room.held();
    }

    /** The most {@link #queuedBytes()} has been since this queue was made: what its bound is about. */
    public long peakQueuedBytes() {
        return room.peak();
    }

    /**
     * The bound of the class comment: what a queue limited to {@code limit}, feeding a server with
     * {@code ioThreads} I/O threads and a message size limit of {@code maxMessageSize}, holds at most.
     */
    public static long heldAtMost(long limit, int ioThreads, int maxMessageSize) {
        return limit + ioThreads * (QueueRoom.OPEN_BYTES + QueueRoom.TAIL_BYTES) + 2L * maxMessageSize + EventRoom.EVENT_BYTES;
    }

    /** The room messages in progress reserved now. */
    public long reservedBytes() {
        return room.reserved();
    }

    @Override
    public void onOpen(WebSocketConnection c) {
        offer(c, new QueuedEvent("Open", c.id(), 0, "", info(c)));
    }

    private static String[] info(WebSocketConnection c) {
        String origin = c.header("Origin");
        return new String[] {cut(c.path(), QueueRoom.INFO_CHARS), cut(c.query(), QueueRoom.INFO_CHARS), cut(c.remoteAddress(), QueueRoom.INFO_CHARS),
            origin == null ? "" : cut(origin, QueueRoom.INFO_CHARS), c.subprotocol() == null ? "" : cut(c.subprotocol(), QueueRoom.INFO_CHARS)};
    }

    /** At most {@code max} characters of {@code s}: what an event carries is bounded whatever a client sent. */
    static String cut(String s, int max) {
        return s == null ? "" : s.length() <= max ? s : s.substring(0, max);
    }

    @Override
    public void onReconnecting(WebSocketConnection c, int attempt, long delayMillis) {
        offer(c, new QueuedEvent("Reconnecting", c.id(), attempt, Long.toString(delayMillis), NO_INFO));
    }

    @Override
    public void onReopened(WebSocketConnection c) {
        offer(c, new QueuedEvent("Reopened", c.id(), 0, "", info(c)));
    }

    @Override
    public void onGaveUp(WebSocketConnection c, String reason) {
        offer(c, new QueuedEvent("GaveUp", c.id(), 0, reason, NO_INFO));
    }

    /**
     * Text with a character beyond the BMP goes as "Text8", its UTF-8 bytes in Base64: J/Link moves
     * Strings as UTF-16, and WL must never be handed a surrogate pair (its UTF-8 would be CESU-8).
     */
    @Override
    public void onText(WebSocketConnection c, String text) {
        offer(c, hasSurrogate(text)
                ? new QueuedEvent("Text8", c.id(), 0, Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)), NO_INFO)
                : new QueuedEvent("Text", c.id(), 0, text, NO_INFO));
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
        offer(c, new QueuedEvent("Binary", c.id(), 0, Base64.getEncoder().encodeToString(data), NO_INFO));
    }

    @Override
    public void onClose(WebSocketConnection c, int code, String reason) {
        if (c.server() == null) {
            suspended.remove(c);
        }
        offer(c, new QueuedEvent("Close", c.id(), code, cut(reason, QueueRoom.TAIL_TEXT_CHARS), NO_INFO));
    }

    @Override
    public void onError(WebSocketConnection c, Throwable error) {
        offer(c, new QueuedEvent("Error", c.id(), 0, cut(String.valueOf(error), QueueRoom.TAIL_TEXT_CHARS), NO_INFO));
    }

    /**
     * Waits up to {@code timeoutMillis} for a first event, then takes up to {@code max} events, and
     * at most a quarter of the queue's limit in bytes after the first (a batch is held whole while
     * the kernel handles it, so it stays counted until the next poll).
     * Returns them flat, {@link #FIELDS} strings each (data is the text, Base64 for binary and "Text8", the
     * reason for Close, the error for Error). One J/Link call moves a whole batch.
     */
    public synchronized String[] poll(int timeoutMillis, int max) throws InterruptedException {
        room.events(-inKernelBytes);     // the kernel asks again: it is done with the last batch
        inKernelBytes = 0;
        List<QueuedEvent> batch = new ArrayList<>();
        QueuedEvent first = timeoutMillis > 0 ? events.poll(timeoutMillis, TimeUnit.MILLISECONDS) : events.poll();
        if (first == null) {
            resumeIfDrained();     // a connection stopped just as the queue emptied must not wait for more events
            return new String[0];
        }
        batch.add(first);
        long batchBytes = first.size();
        QueuedEvent next;
        while (batch.size() < max && (next = events.peek()) != null && batchBytes + next.size() <= maxQueuedBytes / 4) {
            batch.add(events.poll());       // only this thread takes events, so the one peeked is the one taken
            batchBytes += next.size();
        }
        String[] flat = new String[batch.size() * FIELDS];
        long bytes = 0;
        for (int i = 0; i < batch.size(); i++) {
            QueuedEvent e = batch.get(i);
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
