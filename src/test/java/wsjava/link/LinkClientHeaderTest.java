package wsjava.link;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** WL's {@code "header"} and {@code "subprotocol"} options reach the client's checks: a CR LF is refused before any connection. */
@Timeout(10)
class LinkClientHeaderTest {

    @Test
    void aCrLfFromWlIsRefusedBeforeConnecting() {
        // Port 1 is never reached: the options are refused first.
        assertThrows(IllegalArgumentException.class, () -> LinkClient.connect("ws://127.0.0.1:1/",
                new String[] {"header"}, new String[] {"X-Note: a\r\nAuthorization: Bearer forged"}));
        assertThrows(IllegalArgumentException.class, () -> LinkClient.connect("ws://127.0.0.1:1/",
                new String[] {"subprotocol"}, new String[] {"chat\r\nAuthorization: Bearer forged"}));
    }
}
