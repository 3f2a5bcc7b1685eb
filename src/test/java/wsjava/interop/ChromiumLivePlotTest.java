package wsjava.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;
import wsjava.testing.ExternalTools;

/**
 * The live plot example's page (wl/examples/LivePlot.html) in headless Chromium, served as the
 * WL script serves it (its own page at GET /, each series a topic), with the script's protocol
 * played in Java: the page subscribes to the series it shows, only that series' samples reach it,
 * and it draws them.
 */
@Timeout(120)
class ChromiumLivePlotTest {

    @Test
    void thePageSubscribesToItsSeriesAndPlotsIt(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path profile) throws Exception {
        ExternalTools.require(ExternalTools.onPath("chromium"), "chromium (Debian package)");
        String page = Files.readString(ExternalTools.PROJECT.resolve("wl/examples/LivePlot.html"), StandardCharsets.UTF_8);
        CompletableFuture<WebSocketConnection> subscribed = new CompletableFuture<>();
        WebSocketListener script = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection c, String text) {
                if (text.startsWith("subscribe ")) {
                    c.topics().forEach(c::unsubscribe);
                    c.subscribe(text.substring(10));
                    subscribed.complete(c);
                }
            }
        };
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).page(page), script).start();
        AtomicBoolean publishing = new AtomicBoolean(true);
        Thread samples = new Thread(() -> {
            for (int i = 0; publishing.get(); i++) {
                for (String series : List.of("sin", "cos", "noise")) {
                    server.publish(series, "{\"series\":\"" + series + "\",\"t\":" + i + ",\"y\":" + Math.sin(i / 10.0) + "}");
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        samples.start();
        Process chromium = ChromiumProcess.start(profile, List.of("http://127.0.0.1:" + server.port() + "/"));
        try {
            WebSocketConnection browser = subscribed.get(60, TimeUnit.SECONDS);
            assertEquals(Set.of("sin"), browser.topics(), "the page subscribes to the series it shows first");
            assertEquals(1, server.publish("sin", "{\"series\":\"sin\",\"t\":-1,\"y\":0}"), "its series reaches it");
            assertEquals(0, server.publish("cos", "{\"series\":\"cos\",\"t\":-1,\"y\":0}"), "another series does not");
            // What the page drew, asked through Chromium's DevTools protocol.
            String drawn = "";
            long deadline = System.currentTimeMillis() + 30_000;
            while (drawn.split(" ").length < 20 && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
                drawn = DevTools.evaluate(profile, "document.getElementById('line').getAttribute('points')");
            }
            System.out.println("live plot page: " + drawn.split(" ").length + " points drawn");
            assertTrue(drawn.split(" ").length >= 20, "the page drew the samples of its series: " + drawn);
        } finally {
            publishing.set(false);
            samples.join(5_000);
            ChromiumProcess.stop(chromium);
            server.stop();
        }
    }
}
