package wsjava.link;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Round trips through a server with the JDK's own WebSocket client, one message in flight at a
 * time, timed per trip. Runs off the caller's thread: a kernel that called it must stay free to
 * run the handlers that answer.
 */
final class ProbeClient {

    private static final Map<Long, CompletableFuture<String[]>> RUNNING = new ConcurrentHashMap<>();
    private static final AtomicLong HANDLES = new AtomicLong();
    private static final long TRIP_TIMEOUT_SECONDS = 30;

    private ProbeClient() {
    }

    static long start(String url, String origin, String text, int count) {
        long handle = HANDLES.incrementAndGet();
        RUNNING.put(handle, CompletableFuture.supplyAsync(() -> run(url, origin, text, Math.max(1, count))));
        return handle;
    }

    static String[] result(long handle, int waitMillis) throws InterruptedException {
        CompletableFuture<String[]> f = RUNNING.get(handle);
        if (f == null) {
            return new String[] {"failed", "no probe " + handle};
        }
        try {
            String[] r = f.get(waitMillis, TimeUnit.MILLISECONDS);
            RUNNING.remove(handle);
            return r;
        } catch (TimeoutException e) {
            return new String[] {"running"};
        } catch (java.util.concurrent.ExecutionException e) {
            RUNNING.remove(handle);
            return new String[] {"failed", String.valueOf(e.getCause())};
        }
    }

    private static String[] run(String url, String origin, String text, int count) {
        Replies replies = new Replies();
        try {
            WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder();
            if (!origin.isEmpty()) {
                builder.header("Origin", origin);
            }
            WebSocket ws = builder.buildAsync(URI.create(url), replies).get(TRIP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            long[] micros = new long[count];
            String last = "";
            for (int i = 0; i < count; i++) {
                replies.next = new CompletableFuture<>();
                long t = System.nanoTime();
                ws.sendText(text, true).get(TRIP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                last = replies.next.get(TRIP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                micros[i] = (System.nanoTime() - t) / 1_000;
            }
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(TRIP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Arrays.sort(micros);
            return new String[] {"ok", Integer.toString(count), Long.toString(micros[count / 2]), last};
        } catch (Exception e) {
            return new String[] {"failed", String.valueOf(e)};
        }
    }

    /** Collects one whole text reply per trip. */
    private static final class Replies implements WebSocket.Listener {
        volatile CompletableFuture<String> next = new CompletableFuture<>();
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                next.complete(partial.toString());
                partial.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
            next.completeExceptionally(new IllegalStateException("closed by the server: " + code + " " + reason));
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            next.completeExceptionally(error);
        }
    }
}
