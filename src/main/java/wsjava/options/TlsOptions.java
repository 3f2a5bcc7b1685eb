package wsjava.options;

import java.io.IOException;
import java.nio.file.Files;
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
                return TlsContexts.fromKeyStore(readable("tls-keystore", keyStore), password.toCharArray());
            }
            if (certificate == null || key == null) {
                throw new IllegalArgumentException("--tls-cert and --tls-key go together");
            }
            return TlsContexts.fromPem(readable("tls-cert", certificate), readable("tls-key", key));
        } catch (IOException | GeneralSecurityException e) {
            String files = keyStore != null ? "--tls-keystore " + keyStore : "--tls-cert " + certificate + " with --tls-key " + key;
            throw new IllegalArgumentException("TLS: cannot use " + files + ": " + reason(e), e);
        }
    }

    /** The file an option names, when it can be read; else IllegalArgumentException naming the option, the file and why. */
    private static Path readable(String option, String file) {
        Path path = Path.of(file);
        String problem = !Files.exists(path) ? "no such file"
                : Files.isDirectory(path) ? "it is a folder, not a file"
                : !Files.isReadable(path) ? "permission denied" : null;
        if (problem != null) {
            throw new IllegalArgumentException("--" + option + " " + file + ": " + problem);
        }
        return path;
    }

    /** What went wrong, also when the exception's own message is empty or only a path. */
    private static String reason(Exception e) {
        String message = e.getMessage();
        return message == null || message.isEmpty() ? e.getClass().getSimpleName() : message;
    }

    /** The SHA-256 fingerprint of the certificate {@code tls-self-signed} made, or null. */
    public String selfSignedFingerprint() {
        return made == null ? null : made.sha256Fingerprint();
    }
}
