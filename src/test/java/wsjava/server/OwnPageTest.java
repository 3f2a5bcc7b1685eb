package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import wsjava.options.ServerOptions;

/** An application's own page at GET /, instead of the demo page, with the same headers; --page reads it from a file. */
class OwnPageTest {

    private static HttpResponse<String> get(WebSocketServer server, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theOwnPageReplacesTheDemoPage() throws Exception {
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).page("<p>plot é</p>"), new WebSocketListener() { }).start()) {
            HttpResponse<String> r = get(server, "/");
            assertEquals(200, r.statusCode());
            assertEquals("<p>plot é</p>", r.body());
            assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""));
            assertEquals("<p>plot é</p>", get(server, "/index.html").body());
            assertEquals(404, get(server, "/other").statusCode());
        }
    }

    @Test
    void theDemoPageStaysWithoutOneAndCanBeTurnedOff() throws Exception {
        try (WebSocketServer on = new WebSocketServer(new ServerConfig().port(0), new WebSocketListener() { }).start();
             WebSocketServer off = new WebSocketServer(new ServerConfig().port(0).serveDemoPage(false), new WebSocketListener() { }).start()) {
            assertTrue(get(on, "/").body().contains("<html"), "the demo page");
            assertEquals(404, get(off, "/").statusCode());
        }
    }

    @Test
    void thePageOptionReadsAFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("page.html");
        Files.writeString(file, "<h1>from a file</h1>");
        ServerConfig config = new ServerConfig().port(0);
        ServerOptions.apply(config, "page", file.toString());
        try (WebSocketServer server = new WebSocketServer(config, new WebSocketListener() { }).start()) {
            assertEquals("<h1>from a file</h1>", get(server, "/").body());
        }
    }
}
