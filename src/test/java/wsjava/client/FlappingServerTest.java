package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Handshake;

/**
 * Adversarial review after issue 20: a server that answers every upgrade with a valid 101 and
 * drops the socket at once kept a ReconnectingClient reconnecting every initial delay for ever
 * (38 reopens in 15 s, attempt number always 1, maxAttempts never reached), since every open reset
 * the count. An open now counts as a success only once it has stayed up for stableAfterMillis.
 */
@Timeout(60)
class FlappingServerTest {

    private static final Pattern KEY = Pattern.compile("(?im)^Sec-WebSocket-Key:\\s*(\\S+)");

    @Test
    void aServerThatDropsEveryConnectionAtOnceMeetsBackoffAndTheAttemptLimit() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> upgradeAndDrop(listener), "flapping-server");
            server.setDaemon(true);
            server.start();
            ReconnectEvents heard = new ReconnectEvents();
            ReconnectingClient client = ReconnectingClient.connect(URI.create("ws://127.0.0.1:" + listener.getLocalPort() + "/"), heard,
                    new ClientConfig(), new ReconnectPolicy().initialDelayMillis(20).maxDelayMillis(80).maxAttempts(4));
            int highest = 0;
            String event;
            while (!(event = heard.next(20)).startsWith("gave up")) {
                if (event.startsWith("reconnecting ")) {
                    int attempt = Integer.parseInt(event.split(" ")[1]);
                    assertEquals(highest + 1, attempt, "each drop of a connection that did not stay up counts as another attempt");
                    highest = attempt;
                }
            }
            assertEquals(4, highest);
            assertTrue(event.contains("gave up after 4 attempts"), event);
            assertTrue(client.hasEnded());
        }
    }

    private static void upgradeAndDrop(ServerSocket listener) {
        while (!listener.isClosed()) {
            try (Socket s = listener.accept()) {
                Matcher key = KEY.matcher(readHead(s.getInputStream()));
                if (key.find()) {
                    s.getOutputStream().write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Accept: " + Handshake.acceptKey(key.group(1)) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                }
            } catch (IOException e) {
                // the listener closed, or the client went: next
            }
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }
}
