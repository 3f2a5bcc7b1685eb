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

    /**
     * Topics a connection creates count against its share too: short names, each a topic of its own,
     * cost the budget mostly in topic objects. Connections one fewer than the budget's shares still
     * leave room for a bystander.
     */
    @Test
    void topicsAConnectionCreatesCountAgainstItsShare() throws Exception {
        RecordingListener listener = new RecordingListener();
        long budget = 512 * 1024;
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).topicBudgetBytes(budget).maxTopicsPerConnection(10_000),
                listener).start()) {
            int hogs = (int) (budget / TopicIndex.MIN_CONNECTION_SHARE) - 1;
            List<RawClient> clients = new ArrayList<>();
            for (int i = 0; i <= hogs; i++) {
                clients.add(RawClient.open(server.port()));
            }
            TopicsTest.awaitOpened(listener, hogs + 1);
            List<WebSocketConnection> opened = new ArrayList<>(listener.opened);
            for (int h = 0; h < hogs; h++) {
                for (int i = 0; i < 10_000 && opened.get(h).subscribe(h + "-" + i); i++) {
                    // as many as it may
                }
            }
            WebSocketConnection bystander = opened.get(hogs);
            for (int i = 0; i < 20; i++) {
                assertTrue(bystander.subscribe("news-" + i), "the bystander's subscription " + i + " refused, "
                        + server.topicMemoryBytes() + " of " + budget + " bytes held by " + hogs + " connections");
            }
            for (RawClient c : clients) {
                c.close();
            }
        }
    }
}
