package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.testing.ChildJvm;
import wsjava.testing.RawClient;

/**
 * Issue 20, item 10: zlib state is native memory no limit counted: 5,000 connections that each sent
 * one 24-byte compressed message took RSS from 47 to 838 MiB under a 256 MiB heap. Context
 * takeover (a stream kept for the connection's life) is now reserved in a budget (by default an
 * eighth of the heap); past it, new connections get no context takeover.
 */
@Timeout(120)
class ZlibBudgetTest {

    @Test
    void pastTheZlibBudgetNewConnectionsGetNoContextTakeover() throws Exception {
        try (ChildJvm child = ChildJvm.start(List.of("-Xmx128m"), "wsjava.cli.Main", "serve", "--port", "0")) {
            List<RawClient> clients = new ArrayList<>();
            int withoutContext = 0;
            try {
                for (int i = 0; i < 120; i++) {       // 16 MiB of budget at about 300 KiB a connection: about 53 keep a context
                    RawClient c = RawClient.openOffering(child.port, "permessage-deflate");
                    clients.add(c);
                    if (String.valueOf(c.responseHeader("Sec-WebSocket-Extensions")).contains("no_context_takeover")) {
                        withoutContext++;
                    }
                }
            } finally {
                for (RawClient c : clients) {
                    c.close();
                }
            }
            assertTrue(withoutContext >= 50, withoutContext + " of 120 connections were asked for no context takeover under a 128 MiB heap");
            assertTrue(withoutContext <= 80, "the first connections keep context takeover: " + withoutContext + " of 120 did not");
        }
    }
}
