package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.testing.RawClient;
import wsjava.options.ServerOptions;

/** A server's configuration is its own: nothing done to the caller's object afterwards reaches it. */
@Timeout(60)
class ServerConfigTest {

    @Test
    void copyCarriesEveryField() throws Exception {
        ServerConfig original = new ServerConfig().host("::1").port(1234).ioThreads(3).maxHeaderBytes(999).handshakeTimeoutMillis(7)
                .maxFramePayload(5000).maxMessageSize(6000).maxConnections(8).outboundFragmentSize(9).outboundLimitBytes(10)
                .readPauseBytes(11).writableThresholdBytes(16).inboundBudgetBytes(12).closeTimeoutMillis(13).pingIntervalMillis(14).idleTimeoutMillis(15)
                .addAllowedOrigin("http://a").allowAnyOrigin(true).allowHostOrigin(true).accessToken("t").allowNoToken(true)
                .addSubprotocol("p").addTrustedProxy("10.0.0.5").serveDemoPage(false).route("/r", new EchoListener())
                .upgradeHandler(request -> UpgradeDecision.accept());
        ServerConfig copy = original.copy();
        for (Field f : ServerConfig.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            assertEquals(f.get(original), f.get(copy), f.getName() + " was not copied");
            if (f.get(original) instanceof java.util.Collection || f.get(original) instanceof java.util.Map) {
                assertNotSame(f.get(original), f.get(copy), f.getName() + " is shared, not copied");
            }
        }
    }

    @Test
    void changingTheConfigAfterwardsChangesNothing() throws Exception {
        ServerConfig config = new ServerConfig().port(0);
        WebSocketServer server = new WebSocketServer(config, new EchoListener()).start();
        try {
            config.accessToken("too-late").maxConnections(1);
            server.config().accessToken("also-too-late");
            try (RawClient a = RawClient.open(server.port()); RawClient b = RawClient.open(server.port())) {
                assertEquals(null, server.accessToken());
            }
        } finally {
            server.stop();
        }
    }

    @Test
    void aTrustedProxyIsAnIpAddressNeverAName() {
        ServerConfig config = new ServerConfig();
        ServerOptions.apply(config, "trusted-proxy", "10.0.0.5");
        ServerOptions.apply(config, "trusted-proxy", "[::1]");
        assertEquals(java.util.List.of("10.0.0.5", "[::1]"), config.trustedProxies());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ServerOptions.apply(config, "trusted-proxy", "proxy.example.com"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ServerOptions.apply(config, "trusted-proxy", "10.0.0.5:80"));
    }
}
