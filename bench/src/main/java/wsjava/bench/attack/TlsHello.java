package wsjava.bench.attack;

import java.nio.ByteBuffer;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/** TLS for the attacks on a wss server with a self-signed certificate: a client context that trusts it, and a ClientHello. */
final class TlsHello {

    private TlsHello() {
    }

    /** A client context that accepts any certificate (only ever pointed at the attacked server on loopback). */
    static SSLContext trustAll() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, null);
            return context;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first flight of a JDK client: one ClientHello, sent as it is by every flooding socket. */
    static byte[] clientHello() throws java.io.IOException {
        SSLEngine engine = trustAll().createSSLEngine("127.0.0.1", 443);
        engine.setUseClientMode(true);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
    }
}
