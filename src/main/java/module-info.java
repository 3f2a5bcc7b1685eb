/**
 * WSJava: an RFC 6455 WebSocket server ({@link wsjava.server.WebSocketServer}), a client
 * ({@link wsjava.client.WebSocketClient}), TLS contexts from PEM files, keystores or a certificate
 * made in memory ({@link wsjava.tls.TlsContexts}), and the masking core ({@link wsjava.mask.Masker}).
 * Only these packages are the API; the codec, the J/Link facade and the command line stay inside.
 * The Vector API kernel (Java 17+, in the jar's {@code META-INF/versions/17}) is used when the
 * application adds {@code jdk.incubator.vector}; without it the masking core runs its scalar loop.
 */
module io.wsjava {
    requires jdk.management;              // the server's direct-memory limit (HotSpotDiagnosticMXBean)
    requires static java.net.http;        // only the J/Link acceptance probe, which runs from the classpath

    exports wsjava.server;
    exports wsjava.client;
    exports wsjava.tls;
    exports wsjava.mask;
    // The Redis fan-out module checks UTF-8 with the codec's validator.
    exports wsjava.protocol to io.wsjava.redis;
}
