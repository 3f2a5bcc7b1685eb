package wsjava.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Certificates and private keys from PEM files, as web servers take them: a certificate chain, and
 * a key in PKCS#8 ({@code BEGIN PRIVATE KEY}), PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) or SEC1
 * ({@code BEGIN EC PRIVATE KEY}). Encrypted keys are refused with a message saying so.
 */
final class PemFiles {

    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);
    private static final String RSA = "1.2.840.113549.1.1.1";
    private static final String EC = "1.2.840.10045.2.1";

    private PemFiles() {
    }

    static List<Certificate> certificates(Path file) throws IOException, GeneralSecurityException {
        List<Certificate> chain = new ArrayList<>(CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(file))));
        if (chain.isEmpty()) {
            throw new GeneralSecurityException("no certificate in " + file);
        }
        return chain;
    }

    static PrivateKey privateKey(Path file) throws IOException, GeneralSecurityException {
        Matcher m = BLOCK.matcher(Files.readString(file, StandardCharsets.US_ASCII));
        while (m.find()) {
            String type = m.group(1);
            if (!type.endsWith("PRIVATE KEY")) {
                continue;
            }
            if (type.startsWith("ENCRYPTED") || m.group(2).contains("ENCRYPTED")) {
                throw new GeneralSecurityException(file + " holds an encrypted key; give it unencrypted (openssl pkey -in key.pem -out plain.pem)");
            }
            byte[] der = Base64.getMimeDecoder().decode(m.group(2).trim());
            switch (type) {
                case "PRIVATE KEY":
                    return pkcs8(der);
                case "RSA PRIVATE KEY":
                    return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(wrap(RSA, Der.nullValue(), der)));
                case "EC PRIVATE KEY":
                    return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(wrap(EC, curveOf(der), der)));
                default:
                    throw new GeneralSecurityException("unsupported key type " + type + " in " + file);
            }
        }
        throw new GeneralSecurityException("no private key in " + file);
    }

    private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
        GeneralSecurityException last = null;
        for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "RSASSA-PSS"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                last = e;
            }
        }
        throw new GeneralSecurityException("the PKCS#8 key is not RSA, EC or Ed25519", last);
    }

    /** PrivateKeyInfo (RFC 5208) around a traditional key. */
    private static byte[] wrap(String algorithm, byte[] parameters, byte[] key) {
        return Der.sequence(Der.integer(BigInteger.ZERO), Der.sequence(Der.oid(algorithm), parameters), Der.octetString(key));
    }

    /** The named curve of a SEC1 ECPrivateKey: its [0] parameters. */
    private static byte[] curveOf(byte[] sec1) throws GeneralSecurityException {
        for (byte[] element : Der.elements(sec1)) {
            if ((element[0] & 0xFF) == 0xA0) {
                return Der.content(element);
            }
        }
        throw new GeneralSecurityException("the EC key names no curve");
    }
}
