package wsjava.link;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import wsjava.protocol.CloseCodes;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/**
 * Turns server events into a queue that the Wolfram kernel drains on its main thread, so no Java
 * thread ever calls into the kernel (J/Link's link is not thread-safe). Binary payloads are
 * Base64-encoded here, on the I/O thread, so WL gets Strings only.
 *
 * <p>The queue is bounded by the bytes it holds: a connection whose events would push it past
 * {@code maxQueuedBytes} (a kernel that stopped draining) is closed with 1008.
 */
public final class EventQueue implements WebSocketListener {

    /** Fields per event in {@link #poll}'s flat array. */
    public static final int FIELDS = 4;

    private static final class Event {
        final String type;
        final long connection;
        final String payload;
        final int code;

        Event(String type, long connection, String payload, int code) {
            this.type = type;
            this.connection = connection;
            this.payload = payload;
            this.code = code;
        }

        long size() {
            return 64 + 2L * payload.length();
        }
    }

    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final long maxQueuedBytes;

    public EventQueue(long maxQueuedBytes) {
        this.maxQueuedBytes = maxQueuedBytes;
    }

    private void offer(WebSocketConnection connection, Event event) {
        if (queuedBytes.addAndGet(event.size()) > maxQueuedBytes && !event.type.equals("Close")) {
            queuedBytes.addAndGet(-event.size());
            connection.close(CloseCodes.POLICY_VIOLATION, "the Wolfram kernel is not draining events");
            return;
        }
        events.add(event);
    }

    @Override
    public void onOpen(WebSocketConnection c) {
        offer(c, new Event("Open", c.id(), c.path(), 0));
    }

    @Override
    public void onText(WebSocketConnection c, String text) {
        offer(c, new Event("Text", c.id(), text, 0));
    }

    @Override
    public void onBinary(WebSocketConnection c, byte[] data) {
        offer(c, new Event("Binary", c.id(), Base64.getEncoder().encodeToString(data), 0));
    }

    @Override
    public void onClose(WebSocketConnection c, int code, String reason) {
        offer(c, new Event("Close", c.id(), reason, code));
    }

    @Override
    public void onError(WebSocketConnection c, Throwable error) {
        offer(c, new Event("Error", c.id(), String.valueOf(error.getMessage()), 0));
    }

    /**
     * Waits up to {@code timeoutMillis} for a first event, then takes up to {@code max} events.
     * Returns them flat, {@link #FIELDS} strings each: type, connection id, payload (text, Base64
     * for binary, path for Open, reason for Close and Error), close code. One J/Link call moves a
     * whole batch.
     */
    public String[] poll(int timeoutMillis, int max) throws InterruptedException {
        List<Event> batch = new ArrayList<>();
        Event first = timeoutMillis > 0 ? events.poll(timeoutMillis, TimeUnit.MILLISECONDS) : events.poll();
        if (first == null) {
            return new String[0];
        }
        batch.add(first);
        events.drainTo(batch, Math.max(0, max - 1));
        String[] flat = new String[batch.size() * FIELDS];
        long bytes = 0;
        for (int i = 0; i < batch.size(); i++) {
            Event e = batch.get(i);
            flat[i * FIELDS] = e.type;
            flat[i * FIELDS + 1] = Long.toString(e.connection);
            flat[i * FIELDS + 2] = e.payload;
            flat[i * FIELDS + 3] = Integer.toString(e.code);
            bytes += e.size();
        }
        queuedBytes.addAndGet(-bytes);
        return flat;
    }

    public int size() {
        return events.size();
    }
}
