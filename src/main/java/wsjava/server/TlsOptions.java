package wsjava.server;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import wsjava.tls.SelfSignedCertificate;
import wsjava.tls.TlsContexts;

/**
 * The TLS options, shared by the CLI and WL like the others: {@code tls-cert} with {@code tls-key}
 * (PEM), {@code tls-keystore} with {@code tls-password} (PKCS#12), or {@code tls-self-signed}. They
 * are collected while options are read and become one SSLContext at the end, so their order does
 * not matter.
 */
public final class TlsOptions {

    private String certificate;
    private String key;
    private String keyStore;
    private String password = "";
    private boolean selfSigned;
    private SelfSignedCertificate made;

    static boolean handles(String name) {
        return name.startsWith("tls-");
    }

    void apply(String name, String value) {
        switch (name) {
            case "tls-cert": certificate = value; break;
            case "tls-key": key = value; break;
            case "tls-keystore": keyStore = value; break;
            case "tls-password": password = value; break;
            case "tls-self-signed": selfSigned = value == null || Boolean.parseBoolean(value); break;
            default: throw new IllegalArgumentException("unknown option " + name);
        }
    }

    /** The context the options describe, or null when there were none; IllegalArgumentException says what is wrong. */
    SSLContext context() {
        int sources = (certificate != null || key != null ? 1 : 0) + (keyStore != null ? 1 : 0) + (selfSigned ? 1 : 0);
        if (sources == 0) {
            return null;
        }
        if (sources > 1) {
            throw new IllegalArgumentException("give one of --tls-cert/--tls-key, --tls-keystore or --tls-self-signed");
        }
        try {
            if (selfSigned) {
                made = SelfSignedCertificate.generate();
                return TlsContexts.fromSelfSigned(made);
            }
            if (keyStore != null) {
                return TlsContexts.fromKeyStore(Path.of(keyStore), password.toCharArray());
            }
            if (certificate == null || key == null) {
                throw new IllegalArgumentException("--tls-cert and --tls-key go together");
            }
            return TlsContexts.fromPem(Path.of(certificate), Path.of(key));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("TLS: " + e.getMessage(), e);
        }
    }

    /** The SHA-256 fingerprint of the certificate {@code tls-self-signed} made, or null. */
    public String selfSignedFingerprint() {
        return made == null ? null : made.sha256Fingerprint();
    }
}
