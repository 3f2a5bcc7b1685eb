package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.testing.RawClient;
import wsjava.testing.TestTls;

/**
 * Issue 20, item 12 (TLS): client-initiated renegotiation was allowed (a CPU cost per request for
 * nothing), and CBC suites with SHA-1 were on. Renegotiation now closes the connection, and only
 * AEAD suites are offered.
 */
@Timeout(60)
class TlsHardeningTest {

    @Test
    void aClientThatRenegotiatesIsDisconnected() throws Exception {
        TestTls tls = TestTls.get();
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).tls(tls.server), new EchoListener()).start();
        try (SSLSocket s = (SSLSocket) tls.client.getSocketFactory().createSocket("localhost", server.port())) {
            s.setEnabledProtocols(new String[] {"TLSv1.2"});
            s.setSoTimeout(10_000);
            s.startHandshake();
            s.getOutputStream().write(RawClient.request("/", "").getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            assertTrue(readHead(in).startsWith("HTTP/1.1 101"));
            assertThrows(IOException.class, () -> {
                s.startHandshake();              // renegotiation, TLS 1.2
                s.getOutputStream().write(new byte[] {(byte) 0x81, (byte) 0x80, 1, 2, 3, 4});
                if (in.read() < 0) {
                    throw new IOException("closed by the server");
                }
            }, "the server went on after a renegotiation");
        } finally {
            server.stop();
        }
    }

    @Test
    void cbcAndSha1SuitesAreNotOffered() throws Exception {
        TestTls tls = TestTls.get();
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).tls(tls.server), new EchoListener()).start();
        try (SSLSocket s = (SSLSocket) tls.client.getSocketFactory().createSocket("localhost", server.port())) {
            s.setEnabledProtocols(new String[] {"TLSv1.2"});
            s.setEnabledCipherSuites(new String[] {"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA"});
            s.setSoTimeout(10_000);
            assertThrows(SSLHandshakeException.class, s::startHandshake);
        } finally {
            server.stop();
        }
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the upgrade");
            }
            head.append((char) b);
        }
        return head.toString();
    }
}
