package wsjava.bench.attack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import wsjava.redis.LocalRedis;

/**
 * A rogue peer of the Redis that joins servers: the attacked server is joined to a redis-server of
 * its own, a client subscribes to a topic, and the peer publishes on the fan-out's channels what a
 * hostile or broken peer would. Messages past the server's message limit must be dropped, logged
 * and counted (as the server reports it); malformed envelopes must not end the subscription; a
 * copy of the server's own publish id must not hide a message from its clients; a flood of small
 * valid messages must all reach the subscriber, with the heap following the bytes that arrived.
 */
final class RedisPeer extends Attack {

    private static final String TOPIC = "news";
    private static final byte[] CHANNEL = ("wsjava:" + TOPIC).getBytes(StandardCharsets.UTF_8);
    private static final int FLOOD_MESSAGE_BYTES = 200;
    /** Flood messages published but not yet heard, at most: keeps Redis's buffer for the server far under its pub/sub limit. */
    private static final int FLOOD_AHEAD = 20_000;
    private static final long WAIT_MILLIS = 10_000;
    /** Why the attack cannot run here: it fails with this (the build's smoke test skips it unless WSJAVA_REQUIRE_ALL_TOOLS=1). */
    static final String NO_REDIS = "redis-server is not installed";
    /** What the subscriber publishes, for the peer to copy the server's id from. */
    private static final String OWN = "the server's own";

    private LocalRedis redis;
    private ServerUnderTest server;
    private CountingSubscriber subscriber;
    private Jedis peer;
    private Thread flood;
    private volatile boolean flooding;
    private long limit = -1;
    private volatile long published;
    private volatile long bytesPublished;
    private int oversizedSent;
    private int malformedSent;
    private boolean survivedMalformed;
    private int forgedSent;
    private int forgedHeard;
    private long floodMillis;
    private volatile long floodSent;
    private long floodBase;
    private long floodHeard;
    private long[] counts;
    private long loggedDrops = -1;
    private long largestHeard;

    @Override
    String name() {
        return "redis-peer";
    }

    @Override
    String description(Scale scale) {
        return "the server joined to a redis-server of its own, a client subscribed to a topic; a rogue peer of that Redis publishes "
                + oversized(scale) + " messages one byte past the server's message limit (each dropped, logged and counted by the server), "
                + RogueEnvelopes.malformed().size() + " malformed envelopes and " + RogueEnvelopes.channelsNamingNoTopic().size()
                + " channels that name no topic, " + forged(scale)
                + " copies of the server's own publish id with new payloads (each must reach the subscriber), then " + FLOOD_MESSAGE_BYTES
                + "-byte messages to the topic for " + floodMillis(scale) / 1000.0 + " s (each must reach it); heap held at most the"
                + " smaller of the bytes published and the output budget plus one message limit, plus 16 MiB";
    }

    private static int oversized(Scale scale) {
        return scale.count(6, 2);
    }

    private static int forged(Scale scale) {
        return scale.count(50, 10);
    }

    private static long floodMillis(Scale scale) {
        return scale.millis(8_000, 1_500);
    }

    @Override
    void prepare() throws Exception {
        if (!LocalRedis.available()) {
            throw new IOException(NO_REDIS + " (scripts/install-test-tools.sh installs it)");
        }
        redis = LocalRedis.start();
    }

    @Override
    List<String> serverOptions(Scale scale) {
        return List.of("--redis", "redis://127.0.0.1:" + redis.port());
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        this.server = server;
        long[] before = server.redisCounts();
        if (before == null || before[2] < 0) {
            throw new IOException("the attacked server did not report its Redis fan-out");
        }
        limit = before[2];
        subscriber = new CountingSubscriber(server.port, TOPIC);
        peer = new Jedis("127.0.0.1", redis.port(), 30_000);
        awaitSubscribed();
        publishOversized(scale);
        publishMalformed();
        forgeOwnIds(scale);
        floodBase = subscriber.messages();
        flooding = true;
        floodMillis = floodMillis(scale);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(floodMillis);
        flood = new Thread(() -> flood(deadline), "rogue-peer-flood");
        flood.setDaemon(true);
        flood.start();
        Thread.sleep(floodMillis / 2);      // measured in the middle of the flood
    }

    private void publish(byte[] channel, byte[] message) {
        peer.publish(channel, message);
        published++;
        bytesPublished += message.length;
    }

    /** The client subscribes once upgraded: a marker from the peer tells when it hears the topic. */
    private void awaitSubscribed() throws Exception {
        for (int i = 0; i < 100; i++) {
            publish(CHANNEL, ("ready " + i).getBytes(StandardCharsets.UTF_8));
            if (subscriber.awaitText("ready " + i, 100)) {
                return;
            }
        }
        throw new IOException("the subscriber heard nothing published through Redis in 10 s");
    }

    /** One byte past the limit, with the fan-out's envelope and without; each waits for the server to count it, so Redis's buffer stays small. */
    private void publishOversized(Scale scale) throws Exception {
        for (int i = 0; i < oversized(scale); i++) {
            byte[] payload = new byte[(int) limit + 1];
            publish(CHANNEL, i % 2 == 0 ? RogueEnvelopes.envelope(RogueEnvelopes.BINARY, payload) : payload);
            oversizedSent++;
            long deadline = System.currentTimeMillis() + WAIT_MILLIS;
            long[] now;
            while ((now = server.redisCounts()) != null && now[0] < oversizedSent && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
        }
    }

    /** Malformed envelopes on the topic's channel, then channels that name no topic; a marker after them must still arrive. */
    private void publishMalformed() throws Exception {
        for (byte[] m : RogueEnvelopes.malformed()) {
            publish(CHANNEL, m);
            malformedSent++;
        }
        byte[] small = RogueEnvelopes.envelope(RogueEnvelopes.TEXT, "x".getBytes(StandardCharsets.UTF_8));
        for (byte[] channel : RogueEnvelopes.channelsNamingNoTopic()) {
            publish(channel, small);
            malformedSent++;
        }
        publish(CHANNEL, "after malformed".getBytes(StandardCharsets.UTF_8));
        survivedMalformed = subscriber.awaitText("after malformed", WAIT_MILLIS);
    }

    /** Watches the channel, has the server publish, and publishes copies with the server's id: each must reach its subscriber. */
    private void forgeOwnIds(Scale scale) throws Exception {
        byte[] copied;
        try (ChannelWatch watch = new ChannelWatch(redis.port(), CHANNEL, RedisPeer::isOwnPublish, WAIT_MILLIS)) {
            subscriber.publish(OWN);
            copied = watch.next(WAIT_MILLIS);
        }
        if (copied == null) {
            throw new IOException("the peer did not see the server's publish through Redis");
        }
        byte[] id = Arrays.copyOfRange(copied, RogueEnvelopes.ID_AT, RogueEnvelopes.ID_AT + RogueEnvelopes.ID_BYTES);
        for (int i = 0; i < forged(scale); i++) {
            publish(CHANNEL, RogueEnvelopes.envelope(id, RogueEnvelopes.TEXT, ("forged " + i).getBytes(StandardCharsets.UTF_8)));
            forgedSent++;
        }
        subscriber.awaitText("forged " + (forgedSent - 1), WAIT_MILLIS);
        for (int i = 0; i < forgedSent; i++) {
            forgedHeard += subscriber.heardText("forged " + i) ? 1 : 0;
        }
    }

    private static boolean isOwnPublish(byte[] message) {
        int header = RogueEnvelopes.HEADER_BYTES;
        return message.length > header && new String(message, header, message.length - header, StandardCharsets.UTF_8).equals(OWN);
    }

    /** Pipelined publishes of small valid messages until {@code deadline}, never more than {@link #FLOOD_AHEAD} ahead of the subscriber. */
    private void flood(long deadline) {
        byte[] payload = new byte[FLOOD_MESSAGE_BYTES];
        try {
            Pipeline pipeline = peer.pipelined();
            while (flooding && System.nanoTime() < deadline) {
                for (int i = 0; i < 500; i++) {
                    byte[] m = RogueEnvelopes.envelope(RogueEnvelopes.BINARY, payload);
                    pipeline.publish(CHANNEL, m);
                    bytesPublished += m.length;
                }
                pipeline.sync();
                floodSent += 500;
                published += 500;
                while (flooding && floodSent - (subscriber.messages() - floodBase) > FLOOD_AHEAD && !subscriber.closedByServer()) {
                    Thread.sleep(1);
                }
            }
            pipeline.close();
        } catch (Exception e) {
            // the check finds the flood short
        }
    }

    @Override
    long bytesSent() {
        return bytesPublished;
    }

    @Override
    String detail() {
        return String.format(Locale.ROOT, "limit %d MiB; %d oversized published, the server counted %s; %d malformed; %d of %d forged-id heard; "
                + "%d of %d flood messages heard; heap bound %d MiB", limit >> 20, oversizedSent, counts == null ? "nothing" : Long.toString(counts[0]),
                malformedSent, forgedHeard, forgedSent, floodHeard, floodSent, server == null ? -1 : heapBound(server.maxHeap) >> 20);
    }

    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        if (counts == null) {
            problems.add("the server did not report its Redis fan-out's counts");
        } else {
            if (counts[0] != oversizedSent) {
                problems.add("the server counted " + counts[0] + " oversized messages from Redis, not the " + oversizedSent + " published");
            }
            if (counts[1] < published) {
                problems.add("the server received " + counts[1] + " messages from Redis of the " + published + " the peer published (its subscription was cut)");
            }
        }
        if (oversizedSent > 0 && loggedDrops < 1) {
            problems.add("the server's log does not say it dropped an oversized message from Redis");
        }
        if (largestHeard > limit) {
            problems.add("the subscriber heard a message of " + largestHeard + " bytes, over the server's limit of " + limit);
        }
        if (!survivedMalformed) {
            problems.add("a message published after the malformed ones did not reach the subscriber");
        }
        if (forgedHeard != forgedSent || forgedSent != forged(scale)) {
            problems.add(forgedHeard + " of " + forged(scale) + " messages with the server's own id reached its subscriber");
        }
        if (floodSent == 0 || floodHeard != floodSent) {
            problems.add(floodHeard + " of " + floodSent + " flood messages reached the subscriber");
        }
        Bounds.heapHeldAtMost(row, heapBound(row.heapMax), problems);
        return problems;
    }

    /** What the server may hold: what arrived, and at most the subscribers' output budget and the one message read from Redis, plus slack. */
    private long heapBound(long maxHeap) {
        return Math.min(bytesPublished, Bounds.outputBudget(maxHeap) + limit) + Bounds.SLACK;
    }

    /** Waits for the flood to end and the subscriber to hear it, and takes the server's counts while it still runs. */
    @Override
    void finish() {
        try {
            if (flood != null) {
                flood.join(floodMillis + WAIT_MILLIS);
            }
            flooding = false;
            if (subscriber != null) {
                subscriber.awaitMessages(floodBase + floodSent, WAIT_MILLIS);
                floodHeard = subscriber.messages() - floodBase;
                largestHeard = subscriber.largest();
            }
            if (server != null) {
                counts = server.redisCounts();
                loggedDrops = server.logLinesContaining("from Redis: over the server's message limit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            loggedDrops = -1;
        }
    }

    @Override
    public void close() {
        flooding = false;
        try {
            if (subscriber != null) {
                subscriber.close();
            }
            if (peer != null) {
                peer.close();
            }
        } catch (RuntimeException e) {
            // already closed
        }
    }

    @Override
    void release() {
        try {
            if (redis != null) {
                redis.close();
            }
        } catch (Exception e) {
            // a redis-server that would not stop is killed with the JVM's children
        } finally {
            redis = null;
        }
    }
}
