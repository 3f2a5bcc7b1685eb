package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.util.Collections;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.testing.RawClient;

/** A server bound beyond loopback: never without a token unless told so, and its own LAN origins allowed. */
@Timeout(60)
class NetworkExposureTest {

    private static int status(int port, String path, String headers) throws Exception {
        try (RawClient c = new RawClient(port)) {
            return c.handshake(path, headers);
        }
    }

    @Test
    void aServerOnAllInterfacesMakesUpATokenAndRequiresIt() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().host("0.0.0.0").port(0), new EchoListener()).start();
        try {
            String token = server.accessToken();
            assertTrue(token != null && token.length() >= 32, "a generated token: " + token);
            assertTrue(server.accessTokenGenerated());
            assertEquals(401, status(server.port(), "/", ""), "no token: refused, even without an Origin");
            assertEquals(101, status(server.port(), "/?token=" + token, ""));
            assertEquals(101, status(server.port(), "/", "Authorization: Bearer " + token + "\r\n"));
        } finally {
            server.stop();
        }
        WebSocketServer other = new WebSocketServer(new ServerConfig().host("0.0.0.0").port(0), new EchoListener()).start();
        try {
            assertFalse(server.accessToken().equals(other.accessToken()), "each server its own random token");
        } finally {
            other.stop();
        }
    }

    @Test
    void loopbackNeedsNoTokenAndNoTokenIsAnExplicitChoice() throws Exception {
        WebSocketServer loopback = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        try {
            assertNull(loopback.accessToken());
            assertEquals(101, status(loopback.port(), "/", ""));
        } finally {
            loopback.stop();
        }
        WebSocketServer open = new WebSocketServer(new ServerConfig().host("0.0.0.0").port(0).allowNoToken(true), new EchoListener()).start();
        try {
            assertNull(open.accessToken());
            assertEquals(101, status(open.port(), "/", ""));
        } finally {
            open.stop();
        }
        WebSocketServer given = new WebSocketServer(new ServerConfig().host("0.0.0.0").port(0).accessToken("mine"), new EchoListener()).start();
        try {
            assertEquals("mine", given.accessToken());
            assertFalse(given.accessTokenGenerated());
        } finally {
            given.stop();
        }
    }

    @Test
    void theDemoPageWorksFromTheLan() throws Exception {
        Optional<InetAddress> lan = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(nic -> Collections.list(nic.getInetAddresses()).stream())
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
                .findFirst();
        Assumptions.assumeTrue(lan.isPresent(), "this machine has no non-loopback IPv4 address");
        String ip = lan.get().getHostAddress();
        WebSocketServer server = new WebSocketServer(new ServerConfig().host("0.0.0.0").port(0), new EchoListener()).start();
        try (Socket probe = new Socket(ip, server.port())) {
            assertTrue(probe.isConnected());
            String token = server.accessToken();
            assertEquals(101, status(server.port(), "/?token=" + token, "Origin: http://" + ip + ":" + server.port() + "\r\n"),
                    "the page served on the LAN address is its own origin");
            assertEquals(403, status(server.port(), "/?token=" + token, "Origin: http://evil.example:" + server.port() + "\r\n"));
        } finally {
            server.stop();
        }
    }
}
