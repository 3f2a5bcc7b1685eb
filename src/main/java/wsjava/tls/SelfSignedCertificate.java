package wsjava.tls;

import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A throwaway certificate made in memory, for development: an EC P-256 key, valid from an hour ago
 * for 30 days, naming localhost, 127.0.0.1, ::1 and the names given. Browsers will warn about it;
 * its SHA-256 fingerprint lets a user check what they accept.
 */
public final class SelfSignedCertificate {

    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'", Locale.ROOT);

    private final KeyPair keys;
    private final X509Certificate certificate;

    private SelfSignedCertificate(KeyPair keys, X509Certificate certificate) {
        this.keys = keys;
        this.certificate = certificate;
    }

    public KeyPair keys() {
        return keys;
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** The certificate's SHA-256 fingerprint as browsers show it: hex pairs joined by colons. */
    public String sha256Fingerprint() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            StringBuilder b = new StringBuilder();
            for (byte d : digest) {
                b.append(b.length() == 0 ? "" : ":").append(String.format(Locale.ROOT, "%02X", d));
            }
            return b.toString();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    public static SelfSignedCertificate generate(String... extraNames) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = generator.generateKeyPair();
        byte[] signatureAlgorithm = Der.sequence(Der.oid("1.2.840.10045.4.3.2"));     // ecdsa-with-SHA256
        byte[] name = Der.sequence(Der.set(Der.sequence(Der.oid("2.5.4.3"), Der.utf8("WSJava development certificate"))));
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        byte[] validity = Der.sequence(Der.utcTime(UTC_TIME.format(now.minusHours(1))), Der.utcTime(UTC_TIME.format(now.plusDays(30))));
        byte[] serial = Der.integer(new BigInteger(63, new SecureRandom()).add(BigInteger.ONE));
        byte[] tbs = Der.sequence(
                Der.tagged(0, true, Der.integer(BigInteger.TWO)),      // v3
                serial, signatureAlgorithm, name, validity, name,
                keys.getPublic().getEncoded(),                        // SubjectPublicKeyInfo, already DER
                Der.tagged(3, true, Der.sequence(subjectAltNames(extraNames))));
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(keys.getPrivate());
        signer.update(tbs);
        byte[] der = Der.sequence(tbs, signatureAlgorithm, Der.bitString(signer.sign()));
        X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new java.io.ByteArrayInputStream(der));
        certificate.verify(keys.getPublic());
        return new SelfSignedCertificate(keys, certificate);
    }

    private static byte[] subjectAltNames(String... extraNames) throws GeneralSecurityException {
        List<byte[]> names = new ArrayList<>();
        names.add(Der.tagged(2, false, "localhost".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        try {
            names.add(Der.tagged(7, false, InetAddress.getByName("127.0.0.1").getAddress()));
            names.add(Der.tagged(7, false, InetAddress.getByName("::1").getAddress()));
            for (String extra : extraNames) {
                if (extra.matches("[0-9.]+") || extra.contains(":")) {
                    names.add(Der.tagged(7, false, InetAddress.getByName(extra).getAddress()));
                } else {
                    names.add(Der.tagged(2, false, extra.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
                }
            }
        } catch (java.net.UnknownHostException e) {
            throw new GeneralSecurityException("not an address: " + e.getMessage(), e);
        }
        return Der.sequence(Der.oid("2.5.29.17"), Der.octetString(Der.sequence(names.toArray(new byte[0][]))));
    }
}
