package wsjava.redis;

import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * The publishing half of a fan-out: a bounded queue that any thread fills without waiting, and
 * one thread that sends it to Redis in pipelined batches over its own connection. When the queue
 * is full (Redis slow, stalled or down) a publish is dropped and counted; so is a batch whose
 * connection failed, since Redis may or may not have seen it (at most once, never twice). A lost
 * connection is logged and opened again with backoff; what is queued meanwhile goes out after.
 */
final class RedisPublisher {

    private static final int BATCH = 256;
    /** What a queued publish costs beyond its bytes: the entry and its arrays. */
    private static final int ENTRY_BYTES = 64;

    private final RedisLinks links;
    private final long maxQueuedBytes;
    private final int commandTimeoutMillis;
    private final RetryDelay retry;
    private final ArrayDeque<byte[][]> queue = new ArrayDeque<>();
    private final Thread thread;
    final LongAdder sent = new LongAdder();
    final LongAdder dropped = new LongAdder();
    private final ThrottledWarning dropLog = new ThrottledWarning();
    private long queuedBytes;
    private boolean closed;
    private volatile boolean connected;
    /** A failure was logged at WARNING since the last connect: the next ones go at DEBUG. */
    private boolean warned;

    /** Where this server's publishes are recorded as they go out, to know their copies when they come back. */
    private final OwnPublishes own;

    RedisPublisher(RedisLinks links, RedisFanoutConfig config, OwnPublishes own) {
        this.own = own;
        this.links = links;
        this.maxQueuedBytes = config.maxQueuedBytes();
        this.commandTimeoutMillis = config.commandTimeoutMillis();
        this.retry = new RetryDelay(config.minReconnectMillis(), config.maxReconnectMillis());
        this.thread = new Thread(this::run, "wsjava-redis-publisher");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    boolean connected() {
        return connected;
    }

    /** Queues one PUBLISH; false (counted as dropped) when the queue is full. Never waits. */
    boolean offer(byte[] channel, byte[] message) {
        long size = channel.length + message.length + ENTRY_BYTES;
        synchronized (this) {
            if (!closed && queuedBytes + size <= maxQueuedBytes) {
                queue.add(new byte[][] {channel, message});
                queuedBytes += size;
                notifyAll();
                return true;
            }
        }
        dropped.increment();
        dropLog.say(() -> "the queue to Redis at " + links.where() + " is full: publishes reach this server's subscribers only ("
                + dropped.sum() + " dropped so far)");
        return false;
    }

    synchronized long queuedBytes() {
        return queuedBytes;
    }

    /** Waits for at least one queued publish, then takes up to a batch; null once closed. */
    private synchronized List<byte[][]> take() throws InterruptedException {
        while (queue.isEmpty() && !closed) {
            wait();
        }
        if (closed) {
            return null;
        }
        List<byte[][]> batch = new ArrayList<>(Math.min(BATCH, queue.size()));
        while (!queue.isEmpty() && batch.size() < BATCH) {
            byte[][] m = queue.poll();
            queuedBytes -= m[0].length + m[1].length + ENTRY_BYTES;
            batch.add(m);
        }
        return batch;
    }

    private void run() {
        Jedis jedis = null;
        while (!isClosed()) {
            List<byte[][]> batch = null;
            try {
                if (jedis == null) {
                    jedis = links.open("wsjava-fanout-publisher", commandTimeoutMillis);
                    connected = true;
                    retry.reset();
                    RedisLinks.log(Level.INFO, "publishing to Redis at " + links.where(), null);
                    warned = false;
                }
                batch = take();
                if (batch == null) {
                    break;
                }
                Pipeline pipeline = jedis.pipelined();
                for (byte[][] m : batch) {
                    own.sending(m[1], FanoutMessage.ID_AT);
                    pipeline.publish(m[0], m[1]);
                }
                pipeline.sync();
                sent.add(batch.size());
            } catch (InterruptedException e) {
                break;
            } catch (Throwable e) {      // a Jedis failure, or anything else: this thread must go on
                if (batch != null) {
                    dropped.add(batch.size());
                }
                if (!isClosed()) {
                    RedisLinks.log(warned ? Level.DEBUG : Level.WARNING, "Redis at " + links.where() + " unreachable for publishing ("
                            + e + "); local subscribers still get every publish; reconnecting", null);
                    warned = true;
                }
                connected = false;
                RedisLinks.close(jedis);
                jedis = null;
                if (!retry.sleep()) {
                    break;
                }
            }
        }
        connected = false;
        RedisLinks.close(jedis);
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    void close() throws InterruptedException {
        synchronized (this) {
            closed = true;
            queue.clear();
            queuedBytes = 0;
            notifyAll();
        }
        thread.interrupt();
        thread.join(10_000);
    }
}
