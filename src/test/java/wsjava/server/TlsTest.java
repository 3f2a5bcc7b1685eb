package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.testing.TestTls;

/** wss:// with the JDK's client and https:// for the demo page; bad TLS input closes only its connection. */
@Timeout(120)
class TlsTest {

    @Test
    void theJdkClientEchoesOverWss() throws Exception {
        TestTls tls = TestTls.get();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).tls(tls.server), new EchoListener()).start()) {
            assertTrue(server.url().startsWith("wss://"), server.url());
            CompletableFuture<String> echo = new CompletableFuture<>();
            HttpClient http = HttpClient.newBuilder().sslContext(tls.client).build();
            WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create("wss://localhost:" + server.port() + "/"), new WebSocket.Listener() {
                final StringBuilder text = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                    text.append(data);
                    if (last) {
                        echo.complete(text.toString());
                    }
                    webSocket.request(1);
                    return null;
                }
            }).get(20, TimeUnit.SECONDS);
            String big = "x".repeat(300_000);
            ws.sendText(big, true);
            assertEquals(big, echo.get(20, TimeUnit.SECONDS));
            ws.sendClose(1000, "bye").get(10, TimeUnit.SECONDS);
        }
    }
}
