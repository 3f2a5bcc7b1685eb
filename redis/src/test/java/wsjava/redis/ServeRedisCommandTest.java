package wsjava.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.client.ClientConfig;
import wsjava.client.WebSocketClient;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;

/**
 * {@code ./wsjava serve --redis URL}, end to end: two servers, each in its own JVM, one real
 * redis-server, a client on each at {@code /topics/demo}: what one publishes, both receive.
 */
@Timeout(120)
class ServeRedisCommandTest {

    private static final class Heard implements WebSocketListener {
        final BlockingQueue<String> texts = new LinkedBlockingQueue<>();

        @Override
        public void onText(WebSocketConnection connection, String text) {
            texts.add(text);
        }
    }

    @Test
    void aMessagePublishedOnOneServerArrivesOnTheOther() throws Exception {
        Assumptions.assumeTrue(LocalRedis.available(), "redis-server is not installed");
        try (LocalRedis redis = LocalRedis.start()) {
            String redisUrl = "redis://127.0.0.1:" + redis.port();
            try (ServeProcess a = ServeProcess.serve("--redis", redisUrl);
                 ServeProcess b = ServeProcess.serve("--redis=" + redisUrl)) {
                Heard onA = new Heard();
                Heard onB = new Heard();
                WebSocketConnection clientA = WebSocketClient.connect(URI.create(a.url() + "topics/demo"), onA, new ClientConfig());
                WebSocketConnection clientB = WebSocketClient.connect(URI.create(b.url() + "topics/demo"), onB, new ClientConfig());
                // The servers subscribe to Redis in the background: publish until the first copy crosses over.
                String crossed = null;
                for (int i = 0; i < 100 && crossed == null; i++) {
                    clientA.sendText("hello " + i);
                    crossed = onB.texts.poll(100, TimeUnit.MILLISECONDS);
                }
                assertTrue(crossed != null && crossed.startsWith("hello "), "a message published on A reached B's client: " + crossed);
                clientB.sendText("back from B");
                String back;
                do {
                    back = onA.texts.poll(10, TimeUnit.SECONDS);
                } while (back != null && back.startsWith("hello "));
                assertEquals("back from B", back);
                clientA.close(1000, "");
                clientB.close(1000, "");
            }
        }
    }

    @Test
    void aBadRedisUrlIsRefusedBeforeServing() throws Exception {
        Process p = ServeProcess.start("--redis", "http://127.0.0.1:6379");
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue());
    }
}
