package wsjava.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * SSLContexts for a server ({@code ServerConfig.tls(...)}) from what operators have: PEM files (a
 * certificate chain and an RSA or EC key), a PKCS#12 keystore, or a certificate made up in memory.
 */
public final class TlsContexts {

    private static final char[] NO_PASSWORD = new char[0];

    private TlsContexts() {
    }

    /** From a PEM certificate chain (leaf first) and its PEM private key. */
    public static SSLContext fromPem(Path certificateChain, Path privateKey) throws IOException, GeneralSecurityException {
        List<Certificate> chain = PemFiles.certificates(certificateChain);
        PrivateKey key = PemFiles.privateKey(privateKey);
        if (!chain.get(0).getPublicKey().getAlgorithm().equals(keyAlgorithm(key))) {
            throw new GeneralSecurityException("the key in " + privateKey + " is " + key.getAlgorithm()
                    + " but the certificate's is " + chain.get(0).getPublicKey().getAlgorithm());
        }
        return fromKey(key, chain.toArray(new Certificate[0]));
    }

    private static String keyAlgorithm(PrivateKey key) {
        return key.getAlgorithm();
    }

    /** From a PKCS#12 keystore holding one key entry. */
    public static SSLContext fromKeyStore(Path pkcs12, char[] password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(pkcs12)) {
            store.load(in, password);
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    /** For a client: trusts exactly the certificates in a PEM file (a private CA, or a server's own certificate). */
    public static SSLContext trusting(Path pem) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        int n = 0;
        for (Certificate certificate : PemFiles.certificates(pem)) {
            store.setCertificateEntry("trusted-" + n++, certificate);
        }
        javax.net.ssl.TrustManagerFactory trust = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /** From a certificate made up now; see {@link SelfSignedCertificate}. */
    public static SSLContext fromSelfSigned(SelfSignedCertificate certificate) throws GeneralSecurityException {
        try {
            return fromKey(certificate.keys().getPrivate(), new Certificate[] {certificate.certificate()});
        } catch (IOException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static SSLContext fromKey(PrivateKey key, Certificate[] chain) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("server", key, NO_PASSWORD, chain);
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, NO_PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }
}
