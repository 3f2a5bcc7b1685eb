package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.LogRecord;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.testing.LogCapture;

/** The operator sees why clients were turned away: refused origins, tokens and a full server are logged, at most once a minute each. */
@Timeout(60)
class RefusalLogTest {

    private static final String TOKEN = "a-token-of-twenty-four-c";

    /** The status line the server answers an upgrade with. */
    private static String upgrade(int port, String extraHeaders) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" + extraHeaders + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != -1 && c != '\r'; c = in.read()) {
                line.append((char) c);
            }
            return line.toString();
        }
    }

    private static List<String> messages(LogCapture log) {
        return log.records.stream().map(LogRecord::getMessage).collect(Collectors.toList());
    }

    @Test
    void aRefusedOriginIsLoggedOnceWithTheFlagThatWouldAdmitIt() throws Exception {
        try (LogCapture log = new LogCapture(WebSocketServer.class);
             WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new RecordingListener()).start()) {
            for (int i = 0; i < 5; i++) {
                assertTrue(upgrade(server.port(), "Origin: http://evil.example:8000\r\n").startsWith("HTTP/1.1 403"));
            }
            assertTrue(upgrade(server.port(), "Origin: http://other.example\r\n").startsWith("HTTP/1.1 403"));
            List<String> said = messages(log);
            assertEquals(1, said.stream().filter(m -> m.contains("http://evil.example:8000")).count(), String.valueOf(said));
            assertTrue(said.stream().anyMatch(m -> m.contains("--allow-origin http://evil.example:8000")), String.valueOf(said));
            assertTrue(said.stream().anyMatch(m -> m.contains("--allow-origin http://other.example")), String.valueOf(said));
        }
    }

    @Test
    void aRefusedTokenAndAFullServerAreLogged() throws Exception {
        try (LogCapture log = new LogCapture(WebSocketServer.class);
             WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).accessToken(TOKEN).maxConnections(1),
                     new RecordingListener()).start()) {
            assertTrue(upgrade(server.port(), "").startsWith("HTTP/1.1 401"));
            assertTrue(messages(log).stream().anyMatch(m -> m.contains("access token (401)")), String.valueOf(messages(log)));
            try (Socket holder = new Socket("127.0.0.1", server.port())) {
                long deadline = System.nanoTime() + 10_000_000_000L;
                String status;
                do {
                    status = upgrade(server.port(), "Authorization: Bearer " + TOKEN + "\r\n");
                } while (!status.startsWith("HTTP/1.1 503") && System.nanoTime() < deadline);
                assertTrue(status.startsWith("HTTP/1.1 503"), status);
            }
            assertTrue(messages(log).stream().anyMatch(m -> m.contains("connection limit (503)") && m.contains("--max-connections")),
                    String.valueOf(messages(log)));
        }
    }

    @Test
    void eachKindIsLoggedAtMostOnceAMinuteWithACountOfTheRest() {
        AtomicLong now = new AtomicLong();
        RefusalLog refusals = new RefusalLog(now::get);
        try (LogCapture log = new LogCapture(WebSocketServer.class)) {
            for (int i = 0; i < 4; i++) {
                refusals.refused("a", unreported -> "A" + RefusalLog.more(unreported));
                now.addAndGet(10_000_000_000L);     // 10 s
            }
            now.addAndGet(RefusalLog.INTERVAL_NANOS);
            refusals.refused("a", unreported -> "A" + RefusalLog.more(unreported));
            for (int i = 0; i < RefusalLog.MAX_KINDS * 3; i++) {
                refusals.refused("kind " + i, unreported -> "K");
            }
            List<String> said = messages(log);
            assertEquals("A", said.get(0));
            assertEquals("A (and 3 more like it since the last report)", said.get(1));
            assertEquals(2 + RefusalLog.MAX_KINDS, said.size(), "new kinds past the bound share one line: " + said.size());
        }
    }
}
