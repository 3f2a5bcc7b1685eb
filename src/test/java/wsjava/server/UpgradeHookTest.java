package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/** The embedder's say on each upgrade: authentication, routing by path, subprotocol, response headers. */
@Timeout(60)
class UpgradeHookTest {

    private static String echo(RawClient c, String text) throws Exception {
        c.send(c.writer.frame(OpCode.TEXT, true, text.getBytes(), 0, text.length()));
        Frame f = c.readFrame(10_000);
        return new String(f.payload());
    }

    @Test
    void aHandlerAuthenticatesChoosesTheSubprotocolAndAddsHeaders() throws Exception {
        UpgradeHandler handler = request -> {
            if (!"ok".equals(request.cookie("session"))) {
                return UpgradeDecision.reject(401, "log in first");
            }
            return UpgradeDecision.accept().subprotocol(request.offeredSubprotocols().get(1)).header("X-Hello", "1");
        };
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).upgradeHandler(handler), new EchoListener()).start();
        try {
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(401, c.handshake("/", ""));
                assertTrue(c.readToEof().contains("log in first"));
            }
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(101, c.handshake("/", "Cookie: theme=dark; session=ok\r\nSec-WebSocket-Protocol: a, b\r\n"));
                assertTrue(c.responseHead().contains("Sec-WebSocket-Protocol: b\r\n"), c.responseHead());
                assertTrue(c.responseHead().contains("X-Hello: 1\r\n"), c.responseHead());
                assertEquals("hi", echo(c, "hi"));
            }
        } finally {
            server.stop();
        }
    }

    @Test
    void routesSendEachPathToItsListenerAndOthersGet404() throws Exception {
        WebSocketListener shout = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection c, String text) {
                c.sendText(text.toUpperCase());
            }
        };
        ServerConfig config = new ServerConfig().port(0).route("/echo", new EchoListener()).route("/shout", shout);
        WebSocketServer server = new WebSocketServer(config, new EchoListener()).start();
        try {
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(101, c.handshake("/echo", ""));
                assertEquals("quiet", echo(c, "quiet"));
            }
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(101, c.handshake("/shout?x=1", ""));
                assertEquals("LOUD", echo(c, "loud"));
            }
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(404, c.handshake("/elsewhere", ""));
            }
        } finally {
            server.stop();
        }
    }

    @Test
    void aFailingOrWrongHandlerGets500AndTheServerGoesOn() throws Exception {
        UpgradeHandler handler = request -> {
            if (request.path().equals("/throw")) {
                throw new IllegalStateException("handler bug");
            }
            if (request.path().equals("/wrong")) {
                return UpgradeDecision.accept().subprotocol("never-offered");
            }
            return UpgradeDecision.accept();
        };
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).upgradeHandler(handler), new EchoListener()).start();
        try {
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(500, c.handshake("/throw", ""));
            }
            try (RawClient c = new RawClient(server.port())) {
                assertEquals(500, c.handshake("/wrong", ""));
                assertTrue(c.readToEof().contains("did not offer"));
            }
            try (RawClient c = RawClient.open(server.port())) {
                assertEquals("still", echo(c, "still"));
            }
        } finally {
            server.stop();
        }
    }
}
