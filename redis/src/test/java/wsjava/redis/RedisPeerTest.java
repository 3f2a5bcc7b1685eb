package wsjava.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static wsjava.redis.RedisFanoutTest.next;
import static wsjava.redis.RedisFanoutTest.requireRedis;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.Jedis;
import wsjava.tls.SelfSignedCertificate;
import wsjava.tls.TlsContexts;

/**
 * What another client of the Redis (a peer) can do to the servers behind it: a publish larger than
 * the servers' message limit is dropped and counted; an id copied from a server's publish can no
 * longer hide a message from that server's clients; and the fan-out authenticates as an ACL user and
 * speaks TLS, so a Redis can let only the servers in.
 */
@Timeout(120)
class RedisPeerTest {

    private static RedisFanoutConfig quick() {
        return new RedisFanoutConfig().reconnectMillis(20, 200).healthCheckMillis(200);
    }

    @Test
    void aPublishOverTheServersMessageLimitIsDroppedCountedAndTheNextDelivered() throws Exception {
        try (LocalRedis redis = requireRedis(); FanoutNode a = new FanoutNode(redis).awaitConnected();
             Jedis peer = new Jedis("127.0.0.1", redis.port())) {
            BlockingQueue<String> heard = a.subscriber("news");
            a.awaitSubscriptions(1);
            int limit = a.server.config().maxMessageSize();
            peer.publish("wsjava:news".getBytes(StandardCharsets.UTF_8), new byte[limit + 1]);
            peer.publish("wsjava:news", "small");
            assertEquals("T:small", next(heard), "the oversized message was not delivered, the next one was");
            assertEquals(1, a.fanout.oversized());
            assertNull(heard.poll(200, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void anIdCopiedFromAServersPublishCannotHideAMessageFromItsClients() throws Exception {
        try (LocalRedis redis = requireRedis(); FanoutNode a = new FanoutNode(redis).awaitConnected();
             Jedis peer = new Jedis("127.0.0.1", redis.port()); Jedis watching = new Jedis("127.0.0.1", redis.port())) {
            BlockingQueue<byte[]> seen = new LinkedBlockingQueue<>();
            BinaryJedisPubSub watch = new BinaryJedisPubSub() {
                @Override public void onMessage(byte[] channel, byte[] message) { seen.add(message); }
            };
            Thread watcher = new Thread(() -> watching.subscribe(watch, "wsjava:t".getBytes(StandardCharsets.UTF_8)));
            watcher.start();
            BlockingQueue<String> heard = a.subscriber("t");
            a.awaitSubscriptions(1);
            while (!watch.isSubscribed()) {
                Thread.sleep(5);
            }
            a.server.publish("t", "real");
            assertEquals("T:real", next(heard));
            byte[] copied = seen.poll(10, TimeUnit.SECONDS);
            assertTrue(copied != null && FanoutMessage.hasHeader(copied), "the peer saw the server's publish");
            // The peer forges a message with the server's header, id and all: it must still reach the server's clients.
            byte[] forged = Arrays.copyOf(copied, FanoutMessage.HEADER_BYTES + 6);
            System.arraycopy("forged".getBytes(StandardCharsets.UTF_8), 0, forged, FanoutMessage.HEADER_BYTES, 6);
            peer.publish("wsjava:t".getBytes(StandardCharsets.UTF_8), forged);
            assertEquals("T:forged", next(heard), "a copied id hid the message from this server's clients");
            a.server.publish("t", "again");
            assertEquals("T:again", next(heard));
            assertNull(heard.poll(300, TimeUnit.MILLISECONDS), "the server's own copy is still skipped");
            watch.unsubscribe();
            watcher.join(5_000);
        }
    }

    @Test
    void theFanOutAuthenticatesAsAnAclUserFromItsUrl() throws Exception {
        // The default user may only PING: without the right user and password nothing is published or subscribed.
        try (LocalRedis redis = requireRedis(List.of("--user", "default", "on", "nopass", "~*", "&*", "-@all", "+ping",
                "--user", "fanout", "on", ">s3cret:pass", "~*", "&*", "+@all"))) {
            String url = "redis://fanout:s3cret%3Apass@127.0.0.1:" + redis.port();
            try (FanoutNode a = new FanoutNode(quick().url(url)).awaitConnected(); FanoutNode b = new FanoutNode(quick().url(url)).awaitConnected()) {
                BlockingQueue<String> heard = b.subscriber("acl");
                b.awaitSubscriptions(1);
                a.server.publish("acl", "through ACL");
                assertEquals("T:through ACL", next(heard));
            }
            try (FanoutNode wrong = new FanoutNode(quick().url("redis://fanout:wrong@127.0.0.1:" + redis.port()))) {
                Thread.sleep(1_000);
                assertFalse(wrong.fanout.isConnected(), "a wrong password does not connect");
            }
        }
    }

    @Test
    void theFanOutSpeaksTlsToARedissUrl() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        Path dir = Files.createTempDirectory("wsjava-redis-tls");
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        Files.writeString(cert, pem("CERTIFICATE", certificate.certificate().getEncoded()));
        Files.writeString(key, pem("PRIVATE KEY", certificate.keys().getPrivate().getEncoded()));
        int tlsPort = LocalRedis.freePort();
        try (LocalRedis redis = requireRedis(List.of("--tls-port", Integer.toString(tlsPort), "--tls-cert-file", cert.toString(),
                "--tls-key-file", key.toString(), "--tls-auth-clients", "no"))) {
            String url = "rediss://127.0.0.1:" + tlsPort;
            javax.net.ssl.SSLContext trust = TlsContexts.trusting(cert);
            try (FanoutNode a = new FanoutNode(quick().url(url).tls(trust)).awaitConnected();
                 FanoutNode b = new FanoutNode(quick().url(url).tls(trust)).awaitConnected()) {
                BlockingQueue<String> heard = b.subscriber("secure");
                b.awaitSubscriptions(1);
                a.server.publish("secure", "over TLS");
                assertEquals("T:over TLS", next(heard));
            }
            try (FanoutNode untrusting = new FanoutNode(quick().url(url))) {      // the JVM's trust store does not know the certificate
                Thread.sleep(1_000);
                assertFalse(untrusting.fanout.isConnected());
            }
        } finally {
            Files.deleteIfExists(cert);
            Files.deleteIfExists(key);
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void aUrlSetsHostPortUserPasswordAndTls() {
        RedisFanoutConfig c = new RedisFanoutConfig().url("rediss://u%40x:p%3Aw@redis.example:6380");
        assertEquals("redis.example", c.host());
        assertEquals(6380, c.port());
        assertEquals("u@x", c.user());
        assertEquals("p:w", c.password());
        assertTrue(c.tls());
        RedisFanoutConfig plain = new RedisFanoutConfig().url("redis://:only@10.0.0.5");
        assertEquals(6379, plain.port());
        assertNull(plain.user());
        assertEquals("only", plain.password());
        assertFalse(plain.tls());
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
