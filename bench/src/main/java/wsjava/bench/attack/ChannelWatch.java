package wsjava.bench.attack;

import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.Jedis;

/** A rogue peer's eye on one Redis channel: the first message there that a test accepts, as the servers publish it. */
final class ChannelWatch implements AutoCloseable {

    private final Jedis jedis;
    private final BlockingQueue<byte[]> seen = new ArrayBlockingQueue<>(1);
    private final BinaryJedisPubSub watch;
    private final Thread thread;

    /** Subscribes to {@code channel}; returns once Redis confirmed it (at most {@code millis}). */
    ChannelWatch(int redisPort, byte[] channel, Predicate<byte[]> wanted, long millis) throws IOException, InterruptedException {
        jedis = new Jedis("127.0.0.1", redisPort, 30_000);
        watch = new BinaryJedisPubSub() {
            @Override
            public void onMessage(byte[] from, byte[] message) {
                if (wanted.test(message)) {
                    seen.offer(message);
                }
            }
        };
        thread = new Thread(() -> jedis.subscribe(watch, channel), "rogue-peer-watch");
        thread.setDaemon(true);
        thread.start();
        long deadline = System.currentTimeMillis() + millis;
        while (!watch.isSubscribed()) {
            if (System.currentTimeMillis() > deadline) {
                close();
                throw new IOException("no subscription to Redis within " + millis + " ms");
            }
            Thread.sleep(5);
        }
    }

    /** The first accepted message, or null after {@code millis}. */
    byte[] next(long millis) throws InterruptedException {
        return seen.poll(millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        try {
            if (watch.isSubscribed()) {
                watch.unsubscribe();
            }
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the connection is going anyway
        } finally {
            jedis.close();
        }
    }
}
