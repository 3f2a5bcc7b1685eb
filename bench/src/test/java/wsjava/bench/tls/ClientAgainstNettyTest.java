package wsjava.bench.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import wsjava.bench.EchoBench;
import wsjava.client.ClientConfig;
import wsjava.client.WebSocketClient;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.tls.SelfSignedCertificate;

/** WSJava's client against the bench's Netty echo server, over ws:// (with Netty's deflate) and wss:// (the JDK's TLS). */
class ClientAgainstNettyTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ws", "wss"})
    void echoesAgainstNetty(String scheme, @TempDir Path dir) throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        Files.writeString(cert, pem("CERTIFICATE", certificate.certificate().getEncoded()));
        Files.writeString(key, pem("PRIVATE KEY", certificate.keys().getPrivate().getEncoded()));
        List<String> args = new ArrayList<>(List.of("--deflate"));
        if (scheme.equals("wss")) {
            args.addAll(List.of("--tls", cert.toString(), key.toString()));
        }
        int port = EchoBench.freePort();
        Process netty = EchoBench.start(EchoBench.peer("Netty", "wsjava.bench.peers.NettyEchoServer", args), port, false, dir);
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("netty", certificate.certificate());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, tmf.getTrustManagers(), null);
            LinkedBlockingQueue<Object> heard = new LinkedBlockingQueue<>();
            CompletableFuture<Integer> closed = new CompletableFuture<>();
            WebSocketListener listener = new WebSocketListener() {
                @Override public void onText(WebSocketConnection c, String text) { heard.add(text); }
                @Override public void onBinary(WebSocketConnection c, byte[] data) { heard.add(data); }
                @Override public void onClose(WebSocketConnection c, int code, String reason) { closed.complete(code); }
            };
            WebSocketConnection c = WebSocketClient.connect(URI.create(scheme + "://localhost:" + port + "/"), listener, new ClientConfig().tls(tls));
            assertTrue(String.valueOf(c.extensions()).startsWith("permessage-deflate"), "Netty agreed to deflate: " + c.extensions());
            Random random = new Random(9);
            for (int size : new int[] {0, 125, 70_000, 1 << 20}) {
                StringBuilder b = new StringBuilder();
                while (b.length() < size) {
                    b.append("Table[i^2, {i, ").append(b.length()).append("}]; ");
                }
                String text = b.substring(0, size);
                c.sendText(text);
                assertEquals(text, heard.poll(20, TimeUnit.SECONDS));
                byte[] data = new byte[size];
                random.nextBytes(data);
                c.sendBinary(data);
                assertArrayEquals(data, (byte[]) heard.poll(20, TimeUnit.SECONDS));
            }
            c.close(1000, "done");
            assertEquals(1000, closed.get(20, TimeUnit.SECONDS));
        } finally {
            EchoBench.stop(netty);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
