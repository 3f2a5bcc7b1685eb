package wsjava.client;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** One daemon timer thread for keepalive checks and reconnect delays; its tasks only decide and hand off. */
final class ClientTimers {

    static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "wsjava-client-reconnect-timer");
        t.setDaemon(true);
        return t;
    });

    private ClientTimers() {
    }
}
