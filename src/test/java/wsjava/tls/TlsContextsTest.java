package wsjava.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import wsjava.cli.EchoListener;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;
import wsjava.testing.ExternalTools;
import wsjava.testing.TestTls;

/**
 * Every way to give the server its certificate, each proven by a real TLS handshake against it:
 * PEM keys in PKCS#8, PKCS#1 (RSA) and SEC1 (EC) made by keytool and openssl, a PKCS#12 keystore,
 * and the self-signed certificate made in memory. Wrong input gets a message that says what is wrong.
 */
class TlsContextsTest {

    /** keytool makes a key pair and certificate for localhost in a PKCS#12 file. */
    private static Path keytool(Path dir, String algorithm) throws Exception {
        Path p12 = dir.resolve(algorithm + ".p12");
        ExternalTools.Result r = ExternalTools.run(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", algorithm, "-keysize", algorithm.equals("EC") ? "256" : "2048",
                "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", p12.toString(), "-storepass", "secret", "-keypass", "secret"), 120);
        assertEquals(0, r.exitCode, r.output);
        return p12;
    }

    /** Writes the keystore's certificate and its key (PKCS#8) as PEM files; returns {cert, key}. */
    private static Path[] pem(Path p12, Path dir) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p12)) {
            store.load(in, "secret".toCharArray());
        }
        PrivateKey key = (PrivateKey) store.getKey("server", "secret".toCharArray());
        Certificate cert = store.getCertificate("server");
        Path certFile = dir.resolve(key.getAlgorithm() + "-cert.pem");
        Path keyFile = dir.resolve(key.getAlgorithm() + "-key.pem");
        Files.writeString(certFile, TestTls.pem("CERTIFICATE", cert.getEncoded()));
        Files.writeString(keyFile, TestTls.pem("PRIVATE KEY", key.getEncoded()));
        return new Path[] {certFile, keyFile};
    }

    /** A TLS handshake with a server using {@code context}, trusting {@code cert}; gives the certificate the server showed. */
    private static X509Certificate handshake(SSLContext context, Certificate cert) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", cert);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, tmf.getTrustManagers(), null);
        try (WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).tls(context), new EchoListener()).start();
             SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", server.port())) {
            javax.net.ssl.SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2", "http/1.1"});     // as browsers offer
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            assertEquals("http/1.1", socket.getApplicationProtocol(), "ALPN picks HTTP/1.1, the only protocol that upgrades");
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    @Test
    void pemKeysInEveryCommonFormat(@TempDir Path dir) throws Exception {
        for (String algorithm : new String[] {"RSA", "EC"}) {
            Path[] files = pem(keytool(dir, algorithm), dir);
            Certificate cert = PemFiles.certificates(files[0]).get(0);
            assertEquals(cert, handshake(TlsContexts.fromPem(files[0], files[1]), cert), algorithm + " PKCS#8");
            ExternalTools.require(ExternalTools.onPath("openssl"), "openssl (Debian package), to write traditional key files");
            Path traditional = dir.resolve(algorithm + "-traditional.pem");
            List<String> convert = algorithm.equals("RSA")          // openssl 3 writes PKCS#1 only when asked; "ec" writes SEC1
                    ? List.of("openssl", "rsa", "-in", files[1].toString(), "-out", traditional.toString(), "-traditional")
                    : List.of("openssl", "ec", "-in", files[1].toString(), "-out", traditional.toString());
            ExternalTools.Result r = ExternalTools.run(convert, 60);
            assertEquals(0, r.exitCode, r.output);
            String expected = algorithm.equals("RSA") ? "BEGIN RSA PRIVATE KEY" : "BEGIN EC PRIVATE KEY";
            assertTrue(Files.readString(traditional).contains(expected), Files.readString(traditional));
            assertEquals(cert, handshake(TlsContexts.fromPem(files[0], traditional), cert), algorithm + " traditional");
        }
    }

    @Test
    void pkcs12KeystoreAndSelfSigned(@TempDir Path dir) throws Exception {
        Path p12 = keytool(dir, "EC");
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p12)) {
            store.load(in, "secret".toCharArray());
        }
        Certificate cert = store.getCertificate("server");
        assertEquals(cert, handshake(TlsContexts.fromKeyStore(p12, "secret".toCharArray()), cert));
        SelfSignedCertificate made = SelfSignedCertificate.generate("wsjava.test");
        assertEquals(made.certificate(), handshake(TlsContexts.fromSelfSigned(made), made.certificate()));
        assertTrue(made.sha256Fingerprint().matches("([0-9A-F]{2}:){31}[0-9A-F]{2}"), made.sha256Fingerprint());
        assertTrue(made.certificate().getSubjectAlternativeNames().toString().contains("wsjava.test"));
    }

    @Test
    void wrongInputSaysWhatIsWrong(@TempDir Path dir) throws Exception {
        Path[] rsa = pem(keytool(dir, "RSA"), dir);
        Path[] ec = pem(keytool(dir, "EC"), dir);
        GeneralSecurityException mismatch = assertThrows(GeneralSecurityException.class, () -> TlsContexts.fromPem(rsa[0], ec[1]));
        assertTrue(mismatch.getMessage().contains("is EC but the certificate's is RSA"), mismatch.getMessage());
        Path encrypted = dir.resolve("encrypted.pem");
        Files.writeString(encrypted, "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----\n");
        assertTrue(assertThrows(GeneralSecurityException.class, () -> TlsContexts.fromPem(rsa[0], encrypted)).getMessage().contains("encrypted"));
        assertTrue(assertThrows(GeneralSecurityException.class, () -> TlsContexts.fromPem(rsa[0], rsa[0])).getMessage().contains("no private key"));
    }
}
