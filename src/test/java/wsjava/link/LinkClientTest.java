package wsjava.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;
import wsjava.testing.TestTls;

/** WSJavaConnect's Java half through the facade WL calls: events, sends, close, as for a server. */
@Timeout(60)
class LinkClientTest {

    /** Polls until {@code type} arrives (or 10 s pass); returns the events seen, flat. */
    private static List<String> pollUntil(long handle, String type) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline && !seen.contains(type)) {
            seen.addAll(Arrays.asList(WSJavaLink.poll(handle, 100, 100)));
        }
        return seen;
    }

    @Test
    void aClientHandleWorksLikeAServerHandleForEventsSendsAndClose() throws Exception {
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start()) {
            long handle = WSJavaLink.connect("ws://127.0.0.1:" + server.port() + "/chat?room=1",
                    new String[] {"header", "compression"}, new String[] {"X-Who: kernel", "on"});
            long id = WSJavaLink.clientConnection(handle);
            List<String> open = pollUntil(handle, "Open");
            assertEquals(Arrays.asList("Open", Long.toString(id)), open.subList(0, 2));
            assertEquals("/chat", open.get(5));
            assertEquals("room=1", open.get(6));
            assertTrue(WSJavaLink.isOpen(handle, id));
            assertEquals(5, WSJavaLink.sendText(handle, id, "hello"));
            List<String> text = pollUntil(handle, "Text");
            assertEquals("hello", text.get(text.indexOf("Text") + 4));
            assertTrue(Arrays.asList(WSJavaLink.connectionHeaders(handle, id)).contains("sec-websocket-extensions"));
            assertThrows(IllegalArgumentException.class, () -> WSJavaLink.broadcastText(handle, "a client has no broadcast"));
            assertTrue(WSJavaLink.stopServer(handle));
            List<String> close = new ArrayList<>(Arrays.asList(WSJavaLink.poll(handle, 1000, 100)));
            assertEquals("Close", close.get(0));
            assertEquals("1000", close.get(3));
            assertFalse(WSJavaLink.isRunning(handle), "closed, and its close event taken");
            assertTrue(WSJavaLink.forgetServer(handle));
        }
    }

    @Test
    void wssTrustsAGivenCertificateFileOrAPinAndRefusalsSayWhy() throws Exception {
        TestTls tls = TestTls.get();
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).tls(tls.server), new EchoListener()).start()) {
            String url = "wss://localhost:" + server.port() + "/";
            long byFile = WSJavaLink.connect(url, new String[] {"trust-cert"}, new String[] {tls.certificatePem.toString()});
            long byPin = WSJavaLink.connect("wss://127.0.0.1:" + server.port() + "/", new String[] {"pin"},
                    new String[] {tls.certificate.sha256Fingerprint()});
            assertTrue(WSJavaLink.isOpen(byFile, WSJavaLink.clientConnection(byFile)));
            assertTrue(WSJavaLink.isOpen(byPin, WSJavaLink.clientConnection(byPin)));
            java.io.IOException untrusted = assertThrows(java.io.IOException.class, () -> WSJavaLink.connect(url, new String[0], new String[0]));
            assertTrue(untrusted.toString().contains("certif") || untrusted.toString().contains("PKIX"), untrusted.toString());
            WSJavaLink.forgetServer(byFile);
            WSJavaLink.forgetServer(byPin);
        }
        assertThrows(IllegalArgumentException.class, () -> WSJavaLink.connect("ws://127.0.0.1:1/", new String[] {"bogus"}, new String[] {"x"}));
    }
}
