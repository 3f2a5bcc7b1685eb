package wsjava.client;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Locale;
import javax.net.ssl.X509TrustManager;

/** Trusts one server certificate, named by its SHA-256 fingerprint, and nothing else. */
final class PinnedCertificate implements X509TrustManager {

    private final String sha256;

    PinnedCertificate(String sha256) {
        this.sha256 = sha256;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("the server sent no certificate");
        }
        String got = fingerprint(chain[0]);
        if (!got.equals(sha256)) {
            throw new CertificateException("the server's certificate has SHA-256 " + got + ", not the pinned " + sha256);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("a client connection trusts no clients");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }

    private static String fingerprint(X509Certificate certificate) throws CertificateException {
        try {
            StringBuilder hex = new StringBuilder();
            for (byte b : MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded())) {
                hex.append(String.format(Locale.ROOT, "%02X", b));
            }
            return hex.toString();
        } catch (GeneralSecurityException e) {
            throw new CertificateException(e);
        }
    }
}
