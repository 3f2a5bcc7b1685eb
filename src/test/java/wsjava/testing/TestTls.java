package wsjava.testing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import wsjava.tls.SelfSignedCertificate;
import wsjava.tls.TlsContexts;

/** A throwaway certificate for TLS tests: the server's context, a client context trusting it, and it as a PEM file. */
public final class TestTls {

    private static TestTls shared;

    public final SelfSignedCertificate certificate;
    public final SSLContext server;
    public final SSLContext client;
    /** The certificate as PEM: the CA file for Python, Node and curl. */
    public final Path certificatePem;
    /** Its private key as PEM (PKCS#8), for Python and Node servers the client connects to. */
    public final Path keyPem;

    private TestTls() throws Exception {
        certificate = SelfSignedCertificate.generate();
        server = TlsContexts.fromSelfSigned(certificate);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("test", certificate.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        client = SSLContext.getInstance("TLS");
        client.init(null, tmf.getTrustManagers(), null);
        certificatePem = Files.createTempFile("wsjava-test-cert", ".pem");
        certificatePem.toFile().deleteOnExit();
        Files.writeString(certificatePem, pem("CERTIFICATE", certificate.certificate().getEncoded()), StandardCharsets.US_ASCII);
        keyPem = Files.createTempFile("wsjava-test-key", ".pem");
        keyPem.toFile().deleteOnExit();
        Files.writeString(keyPem, pem("PRIVATE KEY", certificate.keys().getPrivate().getEncoded()), StandardCharsets.US_ASCII);
    }

    /** One per test JVM: making a key pair is not free. */
    public static synchronized TestTls get() throws Exception {
        if (shared == null) {
            shared = new TestTls();
        }
        return shared;
    }

    public static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
