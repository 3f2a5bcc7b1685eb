package wsjava.cli;

import java.io.IOException;
import java.net.BindException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import wsjava.server.ServerConfig;
import wsjava.server.ServerOptions;
import wsjava.server.TlsOptions;
import wsjava.server.WebSocketServer;

/**
 * {@code ./wsjava serve}: an echo server. Prints {@code listening on ws://H:P/} when it is ready
 * (and, when it made up an access token because it is exposed to the network, a line with it); stops cleanly (1001 to every client) on Ctrl-C or SIGTERM.
 */
final class ServeCommand {

    private ServeCommand() {
    }

    static int run(List<String> args) throws InterruptedException {
        ServerConfig config = new ServerConfig();
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        TlsOptions tls;
        try {
            for (int i = 0; i < args.size(); i++) {
                String option = args.get(i);
                if (option.equals("--help") || option.equals("-h")) {
                    printHelp();
                    return 0;
                }
                if (!option.startsWith("--")) {
                    throw new IllegalArgumentException("unexpected argument " + option);
                }
                String name = option.substring(2);
                if (ServerOptions.isFlag(name)) {
                    names.add(name);
                    values.add(null);
                    continue;
                }
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(option + " needs a value");
                }
                names.add(name);
                values.add(args.get(++i));
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
        WebSocketServer server = new WebSocketServer(config, new EchoListener());
        try {
            server.start();
        } catch (BindException e) {
            System.err.println("serve: cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage());
            return 1;
        } catch (IOException e) {
            System.err.println("serve: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            stopped.countDown();
        }, "wsjava-shutdown"));
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

    private static String hostForUrl(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }

    private static void printHelp() {
        ServerConfig d = new ServerConfig();
        System.out.println("usage: ./wsjava serve [options]     an echo server: text and binary come back as sent");
        System.out.println();
        System.out.println("  --host H               interface to bind (default " + d.host() + "; 0.0.0.0 exposes it to the network)");
        System.out.println("  --port P               port (default " + ServerConfig.DEFAULT_PORT + "; 0 picks a free one)");
        System.out.println("  --io-threads N         I/O threads (default: one per core, " + d.ioThreads() + " here)");
        System.out.println("  --max-message BYTES    largest message accepted, else close 1009 (default " + d.maxMessageSize() + ")");
        System.out.println("  --max-frame BYTES      largest frame accepted, else close 1009 (default " + d.maxFramePayload() + ")");
        System.out.println("  --max-header BYTES     largest handshake header block, else 431 (default " + d.maxHeaderBytes() + ")");
        System.out.println("  --max-connections N    more are refused with 503 (default " + d.maxConnections() + ")");
        System.out.println("  --handshake-timeout MS a handshake not done by then gets 408 (default " + d.handshakeTimeoutMillis() + ")");
        System.out.println("  --close-timeout MS     wait this long for the peer's close before dropping TCP (default " + d.closeTimeoutMillis() + ")");
        System.out.println("  --ping-interval MS     send keepalive pings this often; 0 = never (default 0)");
        System.out.println("  --idle-timeout MS      close (1001) a connection silent this long; 0 = never (default 0)");
        System.out.println("  --max-topics N         topics one connection may subscribe to (default " + d.maxTopicsPerConnection() + ")");
        System.out.println("  --outbound-limit BYTES drop a client with more than this unsent (slow consumer) (default " + d.outboundLimitBytes() + ")");
        System.out.println("  --inbound-budget BYTES incoming message bytes buffered across all connections before busy ones pause (default "
                + d.inboundBudgetBytes() + ", a quarter of the heap)");
        System.out.println("  --max-inflation-ratio N  past 1 MiB, a compressed message inflating more than N times its size gets 1009; 0 = no cap (default "
                + d.maxInflationRatio() + ")");
        System.out.println("  --partial-message-timeout MS  fail (1008) a message whose sender sends nothing for this long; 0 = never (default "
                + d.partialMessageTimeoutMillis() + ")");
        System.out.println("  --max-handshakes N     sockets not yet upgraded beyond this (or half of --max-connections) push out the oldest (default "
                + d.maxHandshakes() + ")");
        System.out.println("  --max-handshakes-per-address N  the same for one client address (default " + d.maxHandshakesPerAddress() + ")");
        System.out.println("  --trusted-proxy ADDR   a reverse proxy's IP: its X-Forwarded-For names the client (repeatable)");
        System.out.println("  --head-timeout MS      the whole request head must arrive within this, else 408 (default " + d.headTimeoutMillis() + ")");
        System.out.println("  --zlib-budget BYTES    native memory for zlib streams; past it new clients get no context takeover (default "
                + d.zlibBudgetBytes() + ")");
        System.out.println("  --fragment-size BYTES  split messages we send into frames of at most this (default " + d.outboundFragmentSize() + ")");
        System.out.println("  --allow-origin ORIGIN  also accept browsers from ORIGIN, e.g. http://127.0.0.1:20560 (repeatable)");
        System.out.println("  --allow-any-origin     no Origin check (any web page may connect: avoid for kernels)");
        System.out.println("  --allow-host-origin    also accept an Origin equal to the request's Host (behind a reverse proxy)");
        System.out.println("  --token T              require ?token=T or 'Authorization: Bearer T' on upgrades (at least "
                + ServerConfig.MIN_TOKEN_LENGTH + " characters; visible in ps:");
        System.out.println("                         prefer --token-file or WSJAVA_TOKEN). A server bound beyond loopback always needs one:");
        System.out.println("                         without one it makes one and prints it");
        System.out.println("  --token-file FILE      the token is the first line of FILE");
        System.out.println("  --require-token        make and print a token even on loopback, when none is given");
        System.out.println("  --no-token             allow a server bound beyond loopback to run without a token (private networks only)");
        System.out.println("  --subprotocol NAME     offer this subprotocol (repeatable, most preferred first)");
        System.out.println("  --compression on|off   permessage-deflate with clients that offer it (default on)");
        System.out.println("  --compression-level N  zlib level 0-9 (default " + d.compression().level() + ")");
        System.out.println("  --compression-threshold BYTES  send shorter messages uncompressed (default " + d.compression().thresholdBytes() + ")");
        System.out.println("  --compression-idle-release MS  free a connection's compressor after MS without a compressed message (default "
                + d.compression().idleReleaseMillis() + ")");
        System.out.println("  --no-context-takeover  ask clients for no context takeover: zlib memory only while a message is in flight");
        System.out.println("  --tls-cert FILE --tls-key FILE  serve wss:// and https:// with a PEM certificate chain and key (RSA or EC)");
        System.out.println("  --tls-keystore FILE [--tls-password P]  ... or with a PKCS#12 keystore");
        System.out.println("  --tls-self-signed      ... or with a throwaway certificate made now (prints its SHA-256 fingerprint)");
        System.out.println("  --no-demo-page         answer GET / with 404 instead of the demo page");
        System.out.println("  --page FILE            serve FILE (UTF-8 HTML) at GET / instead of the demo page");
    }
}
