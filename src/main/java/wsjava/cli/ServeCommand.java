package wsjava.cli;

import java.io.IOException;
import java.net.BindException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import wsjava.mask.Masker;
import wsjava.options.ServerOptions;
import wsjava.options.TlsOptions;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;

/**
 * {@code ./wsjava serve}: an echo server, and topics at {@code /topics/NAME} (see {@link ServeListener}),
 * fanned out through Redis with {@code --redis}. Prints {@code listening on ws://H:P/} when it is ready
 * (and, when it made up an access token because it is exposed to the network, a line with it), and on
 * stderr the Java, transport and masking kernel it runs on; stops cleanly (1001 to every client) on Ctrl-C or SIGTERM.
 */
final class ServeCommand {

    /** Options serve takes itself, beyond the server's. */
    static final List<String> OWN_OPTIONS = List.of("redis");

    private ServeCommand() {
    }

    static int run(List<String> args) throws InterruptedException {
        ServerConfig config = new ServerConfig();
        TlsOptions tls;
        String redis = null;
        try {
            List<String> valueOptions = new ArrayList<>(List.of(ServerOptions.VALUE_OPTIONS));
            valueOptions.addAll(OWN_OPTIONS);
            CommandLine line = CommandLine.parse(args, valueOptions.toArray(new String[0]), ServerOptions.FLAGS);
            if (line.help) {
                System.out.print(HelpText.of("serve"));
                return 0;
            }
            if (!line.arguments.isEmpty()) {
                throw new IllegalArgumentException("unexpected argument " + line.arguments.get(0));
            }
            List<String> names = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (int i = 0; i < line.names.size(); i++) {
                if (line.names.get(i).equals("redis")) {
                    redis = line.values.get(i);
                } else {
                    names.add(line.names.get(i));
                    values.add(line.values.get(i));
                }
            }
            String fromEnvironment = System.getenv("WSJAVA_TOKEN");
            if (fromEnvironment != null && !fromEnvironment.isEmpty() && !names.contains("token") && !names.contains("token-file")) {
                names.add("token");              // kept out of the process list, unlike --token
                values.add(fromEnvironment);
            }
            tls = ServerOptions.applyAll(config, names, values);
        } catch (IllegalArgumentException e) {
            System.err.println("serve: " + e.getMessage());
            System.err.println("see ./wsjava serve --help");
            return 2;
        }
        WebSocketServer server = new WebSocketServer(config, new ServeListener());
        try {
            server.start();
        } catch (BindException e) {
            System.err.println("serve: cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage());
            return 1;
        } catch (IOException e) {
            System.err.println("serve: " + e.getMessage());
            return 1;
        }
        AutoCloseable fanout;
        try {
            fanout = redis == null ? null : RedisOption.start(server, redis);
        } catch (IllegalArgumentException e) {
            server.stop();
            System.err.println("serve: " + e.getMessage());
            return 2;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            closeQuietly(fanout);
            stopped.countDown();
        }, "wsjava-shutdown"));
        // stdout keeps its one ready line, which scripts read; what it runs on goes to stderr.
        System.err.println("running on Java " + System.getProperty("java.version") + " (" + System.getProperty("java.home")
                + "), " + server.transport().toUpperCase(java.util.Locale.ROOT) + " transport, masking kernel " + Masker.implementation());
        System.out.println("listening on " + server.url());
        if (tls.selfSignedFingerprint() != null) {
            System.out.println("self-signed certificate, SHA-256 " + tls.selfSignedFingerprint()
                    + " (browsers warn; check this fingerprint before accepting; the demo page: https://"
                    + hostForUrl(server.host()) + ":" + server.port() + "/)");
        }
        if (server.accessTokenGenerated()) {
            // Exposed beyond loopback with no token given: the server made one; clients need it.
            System.out.println("access token: " + server.accessToken() + "  (clients send ?token=... or 'Authorization: Bearer ...';"
                    + " the demo page: " + (config.tls() == null ? "http" : "https") + "://" + hostForUrl(server.host()) + ":" + server.port() + "/?token=" + server.accessToken() + ")");
        }
        System.out.flush();
        stopped.await();
        return 0;
    }

    private static void closeQuietly(AutoCloseable fanout) {
        try {
            if (fanout != null) {
                fanout.close();
            }
        } catch (Exception e) {
            System.err.println("serve: closing the Redis fan-out: " + e);
        }
    }

    private static String hostForUrl(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
