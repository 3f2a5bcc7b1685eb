package wsjava.interop;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks a headless Chromium (started with --remote-debugging-port=0 and --user-data-dir) to
 * evaluate an expression in its page, through the DevTools protocol, with the JDK's WebSocket:
 * what a page shows, read without changing the page for the test.
 */
final class DevTools {

    private DevTools() {
    }

    /** The expression's value as a string ("" when it is not there yet). */
    static String evaluate(Path profile, String expression) throws Exception {
        Path portFile = profile.resolve("DevToolsActivePort");
        if (!Files.exists(portFile)) {
            return "";
        }
        String port = Files.readAllLines(portFile).get(0).trim();
        HttpClient http = HttpClient.newHttpClient();
        String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher page = Pattern.compile("\"type\"\\s*:\\s*\"page\"[^}]*?\"webSocketDebuggerUrl\"\\s*:\\s*\"([^\"]+)\"|"
                + "\"webSocketDebuggerUrl\"\\s*:\\s*\"([^\"]+)\"[^}]*?\"type\"\\s*:\\s*\"page\"").matcher(list);
        if (!page.find()) {
            return "";
        }
        String url = page.group(1) != null ? page.group(1) : page.group(2);
        CompletableFuture<String> reply = new CompletableFuture<>();
        StringBuilder text = new StringBuilder();
        WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(url), new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                text.append(data);
                if (last) {
                    reply.complete(text.toString());
                }
                ws.request(1);
                return null;
            }
        }).get(10, TimeUnit.SECONDS);
        String quoted = expression.replace("\\", "\\\\").replace("\"", "\\\"");
        socket.sendText("{\"id\":1,\"method\":\"Runtime.evaluate\",\"params\":{\"expression\":\"String(" + quoted + ")\"}}", true);
        String answer = reply.get(10, TimeUnit.SECONDS);
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
        Matcher value = Pattern.compile("\"value\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(answer);
        return value.find() ? value.group(1) : "";
    }
}
