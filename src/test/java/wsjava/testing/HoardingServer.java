package wsjava.testing;

import java.util.ArrayList;
import java.util.List;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketConnection;
import wsjava.server.WebSocketListener;
import wsjava.server.WebSocketServer;

/**
 * A child server for the out-of-memory test: text {@code hoard} makes its listener take every byte
 * of the heap it can get (in ever smaller pieces, so nothing is left), kept on that connection, and
 * let the OutOfMemoryError escape; any other text is echoed.
 */
public final class HoardingServer {

    private HoardingServer() {
    }

    public static void main(String[] args) throws Exception {
        WebSocketListener listener = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection c, String text) {
                if (!text.equals("hoard")) {
                    c.sendText(text);
                    return;
                }
                List<Object> hoard = new ArrayList<>(1 << 20);
                c.attach(hoard);
                for (int size = 1 << 20; size >= 16; size /= 4) {
                    try {
                        while (true) {
                            hoard.add(new byte[size]);
                        }
                    } catch (OutOfMemoryError smaller) {
                        // go on with smaller pieces
                    }
                }
                hoard.add(new byte[1 << 20]);       // the heap is full: this throws, out of the listener
            }
        };
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(1), listener).start();
        System.out.println("listening on ws://127.0.0.1:" + server.port() + "/");
        System.out.flush();
        server.awaitStopped(1, java.util.concurrent.TimeUnit.HOURS);
    }
}
