package wsjava.conformance;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import wsjava.server.ServerConfig;
import wsjava.testing.RawClient;
import wsjava.testing.TestTls;

/** The whole strict suite once more, every case over TLS (wss://), graded the same way. */
class TlsConformanceTest extends ConformanceTest {

    @Override
    ServerConfig config() throws Exception {
        return super.config().tls(TestTls.get().server);
    }

    @Override
    String title() {
        return "WSJava conformance report over TLS (strict)";
    }

    @BeforeAll
    void routeClientsThroughTls() throws Exception {
        RawClient.useTls(TestTls.get().client.getSocketFactory());
    }

    @AfterAll
    void routeClientsBack() {
        RawClient.useTls(null);
    }
}
