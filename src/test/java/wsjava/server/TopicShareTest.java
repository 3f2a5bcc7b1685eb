package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.testing.RawClient;

/**
 * The topic budget was first come, first served: a few connections subscribing to their limit of
 * long-named topics took it whole, and every other subscription was refused. Each connection now
 * holds at most its share, so filling the budget takes hundreds of connections, not a handful.
 */
@Timeout(60)
class TopicShareTest {

    @Test
    void aHogOfSeveralConnectionsCannotLockOthersOut() throws Exception {
        RecordingListener listener = new RecordingListener();
        long budget = 512 * 1024;
        int hogs = 8;
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).topicBudgetBytes(budget), listener).start()) {
            List<RawClient> clients = new ArrayList<>();
            for (int i = 0; i <= hogs; i++) {
                clients.add(RawClient.open(server.port()));
            }
            TopicsTest.awaitOpened(listener, hogs + 1);
            List<WebSocketConnection> opened = new ArrayList<>(listener.opened);
            String longName = "x".repeat(250);
            for (int h = 0; h < hogs; h++) {
                for (int i = 0; i < 256 && opened.get(h).subscribe(longName + h + "-" + i); i++) {
                    // as many as it may
                }
                long held = server.topicMemoryBytes();
                assertTrue(held < budget, "after hog " + (h + 1) + " of " + hogs + ", " + held + " of " + budget + " bytes held");
            }
            WebSocketConnection bystander = opened.get(hogs);
            for (int i = 0; i < 20; i++) {
                assertTrue(bystander.subscribe("news-" + i), "the bystander's subscription " + i + " refused");
            }
            for (RawClient c : clients) {
                c.close();
            }
        }
    }
}
