package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.cli.EchoListener;
import wsjava.testing.RawClient;
import wsjava.testing.TestTls;

/**
 * A flood of ClientHellos from one address filled the TLS handshake pool's queue (256 waiting
 * batches), and real clients' handshakes were refused. The slow steps are now taken from each
 * address in turn: the flood waits in its own line, and real wss clients from another address
 * complete their handshakes.
 */
@Tag("serial")      // real clients served within their timeouts during a flood: run alone, not beside another test JVM
@Timeout(150)
class TlsHelloFloodTest {

    private static final int REAL_CLIENTS = 8;

    @Test
    void realClientsFromAnotherAddressCompleteTheirHandshakesDuringAHelloFlood() throws Exception {
        TestTls tls = TestTls.get();
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).tls(tls.server), new EchoListener()).start();
        byte[] hello = clientHello(tls);
        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicInteger sent = new AtomicInteger();
        List<Thread> flooders = new ArrayList<>();
        try {
            for (int t = 0; t < 2; t++) {
                Thread f = new Thread(() -> flood(server.port(), hello, flooding, sent));
                f.setDaemon(true);
                f.start();
                flooders.add(f);
            }
            Thread.sleep(3_000);      // the flood's batches queue up
            List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicInteger ok = new AtomicInteger();
            List<Thread> clients = new ArrayList<>();
            for (int i = 0; i < REAL_CLIENTS; i++) {
                Thread c = new Thread(() -> {
                    if (realClient(tls, server.port(), failures)) {
                        ok.incrementAndGet();
                    }
                });
                c.start();
                clients.add(c);
            }
            for (Thread c : clients) {
                c.join(60_000);
            }
            System.out.printf("TLS hello flood: %d hellos sent; %d of %d real wss handshakes upgraded%n", sent.get(), ok.get(), REAL_CLIENTS);
            assertEquals(REAL_CLIENTS, ok.get(), "real clients refused during the flood: " + failures);
        } finally {
            flooding.set(false);
            for (Thread f : flooders) {
                f.join(10_000);
            }
            server.stop();
        }
    }

    /** A JDK wss client from 127.0.0.2: true once upgraded (slow is allowed: the machine may be loaded; refused is not). */
    private static boolean realClient(TestTls tls, int port, List<String> failures) {
        try (SSLSocket s = (SSLSocket) tls.client.getSocketFactory().createSocket("localhost", port, InetAddress.getByName("127.0.0.2"), 0)) {
            s.setSoTimeout(45_000);
            s.startHandshake();
            s.getOutputStream().write(RawClient.request("/", "").getBytes(StandardCharsets.ISO_8859_1));
            String head = readHead(s.getInputStream());
            if (head.startsWith("HTTP/1.1 101")) {
                return true;
            }
            failures.add(head);
        } catch (IOException e) {
            failures.add(e.toString());
        }
        return false;
    }

    /** Opens sockets from 127.0.0.1 and sends each a ClientHello, keeping the latest few hundred open. */
    private static void flood(int port, byte[] hello, AtomicBoolean flooding, AtomicInteger sent) {
        ArrayDeque<Socket> open = new ArrayDeque<>();
        try {
            while (flooding.get()) {
                try {
                    Socket s = new Socket();
                    s.bind(new InetSocketAddress("127.0.0.1", 0));
                    s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                    s.getOutputStream().write(hello);
                    sent.incrementAndGet();
                    open.add(s);
                } catch (IOException e) {
                    // the server pushed it out or the backlog is full: go on
                }
                while (open.size() > 300) {
                    closeQuietly(open.poll());
                }
            }
        } finally {
            open.forEach(TlsHelloFloodTest::closeQuietly);
        }
    }

    private static byte[] clientHello(TestTls tls) throws IOException {
        SSLEngine engine = tls.client.createSSLEngine("localhost", 443);
        engine.setUseClientMode(true);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // going anyway
        }
    }
}
