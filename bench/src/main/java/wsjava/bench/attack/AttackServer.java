package wsjava.bench.attack;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import wsjava.cli.EchoListener;
import wsjava.cli.ServeListener;
import wsjava.link.WSJavaLink;
import wsjava.redis.RedisFanout;
import wsjava.redis.RedisUrl;
import wsjava.server.ServerConfig;
import wsjava.options.ServerOptions;
import wsjava.server.WebSocketServer;

/**
 * The server under attack, in a JVM of its own so that its heap and RSS are its own: {@code echo}
 * is {@code ./wsjava serve} (the echo listener), {@code events} is a server as the WL paclet starts
 * it ({@code WSJavaLink.startServer}) with a kernel that takes its events at 20 MB/s. Arguments
 * after the mode are server options ({@code --name value}); {@code --redis URL} joins an echo server
 * to that Redis as {@code ./wsjava serve --redis} does ({@link ServeListener}). It prints
 * {@code listening on ...} (with Redis, once both connections to it are up), then answers
 * {@code gc} on stdin with {@code heap <bytes used after a full GC> <max heap>}, and {@code redis}
 * with {@code redis <oversized> <received> <message limit>} (the fan-out's counts; -1 without Redis).
 */
public final class AttackServer {

    private AttackServer() {
    }

    public static void main(String[] args) throws Exception {
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String name = args[i].substring(2);
            boolean flag = ServerOptions.isFlag(name);
            names.add(name);
            values.add(flag ? null : args[++i]);
        }
        String redis = null;
        int at = names.indexOf("redis");
        if (at >= 0) {
            redis = values.get(at);
            names.remove(at);
            values.remove(at);
        }
        String url;
        String transport;
        WebSocketServer echo = null;
        RedisFanout fanout = null;
        if (args[0].equals("events")) {
            long handle = WSJavaLink.startServer(names.toArray(new String[0]), values.stream().map(v -> v == null ? "true" : v).toArray(String[]::new));
            url = WSJavaLink.serverUrl(handle);
            transport = linkTransport(handle);
            Thread kernel = new Thread(() -> drainSlowly(handle), "slow-kernel");
            kernel.setDaemon(true);
            kernel.start();
        } else {
            ServerConfig config = new ServerConfig();
            ServerOptions.applyAll(config, names, values);
            echo = new WebSocketServer(config, redis == null ? new EchoListener() : new ServeListener()).start();
            url = echo.url();
            transport = transportOf(echo);
            fanout = redis == null ? null : joinRedis(echo, redis);
        }
        System.out.println("listening on " + url + " (" + transport + ")");
        System.out.flush();
        answerCommands(echo, fanout);
    }

    /**
     * A kernel as the paclet drives it: a batch every 10 ms (the default drain interval), each event
     * taken at 20 MB/s (its data crossing J/Link as a String); short texts are echoed, as by a WL echo
     * handler, so a bystander can time round trips.
     */
    /** Bytes of event data the slow kernel has handled so far (the "kernel" command says). */
    private static final java.util.concurrent.atomic.AtomicLong KERNEL_TOOK = new java.util.concurrent.atomic.AtomicLong();

    private static void drainSlowly(long handle) {
        while (true) {
            try {
                String[] batch = WSJavaLink.poll(handle, 10, 1000);
                for (int at = 0; at < batch.length; at += wsjava.link.EventQueue.FIELDS) {
                    String data = batch[at + 4];
                    Thread.sleep(kernelMillis(data.length()));
                    KERNEL_TOOK.addAndGet(data.length());
                    if (batch[at].equals("Text") && data.length() < 1024) {
                        WSJavaLink.sendText(handle, Long.parseLong(batch[at + 1]), data);
                    }
                }
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            } catch (Throwable e) {   // the kernel side must outlive whatever the attack does to the JVM
                sleepQuietly();
            }
        }
    }

    /** How long the slow kernel takes to handle {@code bytes} of events: 20 MB/s. */
    static long kernelMillis(long bytes) {
        return bytes / 20_000;
    }

    /** The transport of the server behind a J/Link handle (the facade has no call for it: WL runs on Java 11, on NIO). */
    private static String linkTransport(long handle) throws ReflectiveOperationException {
        java.lang.reflect.Method find = WSJavaLink.class.getDeclaredMethod("server", long.class);
        find.setAccessible(true);
        Object link = find.invoke(null, handle);
        java.lang.reflect.Field server = link.getClass().getDeclaredField("server");
        server.setAccessible(true);
        return transportOf((WebSocketServer) server.get(link));
    }

    /** Its transport; "nio" for a library older than the choice (--server-jar), which had only NIO. */
    private static String transportOf(WebSocketServer server) {
        try {
            return server.transport();
        } catch (NoSuchMethodError e) {
            return "nio";
        }
    }

    /** Joins {@code server} to the Redis at {@code url}; returns once it publishes and is subscribed (at most 20 s). */
    private static RedisFanout joinRedis(WebSocketServer server, String url) throws InterruptedException {
        RedisFanout fanout = RedisUrl.start(server, url);
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!fanout.isConnected()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no connection to Redis at " + url + " within 20 s");
            }
            Thread.sleep(10);
        }
        return fanout;
    }

    /** {@code gc}: {@code heap <used after GC> <max> <inbound buffered, or -1>} (the last only for the echo server); {@code redis}: its counts. */
    private static void answerCommands(WebSocketServer echo, RedisFanout fanout) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("gc")) {
                try {
                    long used = Long.MAX_VALUE;
                    for (int i = 0; i < 3; i++) {      // a GC asked for while zlib pins an array is skipped: the least of three
                        System.gc();
                        used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
                        Thread.sleep(50);
                    }
                    long max = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
                    System.out.println("heap " + used + " " + max + " " + (echo == null ? -1 : echo.inboundBufferedBytes()));
                } catch (Throwable e) {     // out of memory: say so rather than nothing
                    System.out.println("heap -1 -1 -1");
                }
                System.out.flush();
            } else if (line.equals("kernel")) {
                System.out.println("kernel " + KERNEL_TOOK.get());
                System.out.flush();
            } else if (line.equals("redis")) {
                System.out.println(fanout == null ? "redis -1 -1 -1"
                        : "redis " + fanout.oversized() + " " + fanout.received() + " " + echo.config().maxMessageSize());
                System.out.flush();
            }
        }
        System.exit(0);
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException ignored) {
            Thread.currentThread().interrupt();
        }
    }
}
