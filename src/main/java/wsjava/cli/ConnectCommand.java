package wsjava.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import wsjava.client.ClientConfig;
import wsjava.client.WebSocketClient;
import wsjava.options.Units;
import wsjava.server.WebSocketConnection;

/**
 * {@code ./wsjava connect URL}: sends the lines of standard input as text messages and prints the
 * messages received, until the input ends (then, after {@code --wait} for the last replies, closes
 * with 1000) or the server closes.
 */
final class ConnectCommand {

    static final String[] VALUE_OPTIONS = {"header", "subprotocol", "pin", "max-message", "connect-timeout", "wait"};
    static final String[] FLAGS = {"deflate", "no-deflate", "pipe"};

    /**
     * How long the connection stays open after the input ends, by default: a server that receives
     * our close may drop the replies it had not sent yet (Python websockets does), so the last
     * lines' replies would be lost.
     */
    static final long DEFAULT_WAIT_MILLIS = 1000;

    private ConnectCommand() {
    }

    static int run(List<String> args, InputStream in, PrintStream out, PrintStream err) throws InterruptedException {
        ClientConfig config = new ClientConfig();
        boolean pipe = System.console() == null;
        long waitMillis = DEFAULT_WAIT_MILLIS;
        URI uri;
        try {
            CommandLine line = CommandLine.parse(args, VALUE_OPTIONS, FLAGS);
            if (line.help) {
                out.print(HelpText.of("connect"));
                return 0;
            }
            if (line.arguments.size() != 1) {
                throw new IllegalArgumentException(line.arguments.isEmpty() ? "which URL? e.g. ./wsjava connect ws://127.0.0.1:20580/"
                        : "one URL only, got " + line.arguments);
            }
            uri = URI.create(line.arguments.get(0));
            for (int i = 0; i < line.names.size(); i++) {
                if (line.names.get(i).equals("wait")) {
                    waitMillis = Units.millis("wait", line.values.get(i));
                } else {
                    pipe |= apply(config, line.names.get(i), line.values.get(i));
                }
            }
        } catch (IllegalArgumentException e) {
            err.println("connect: " + e.getMessage());
            err.println("see ./wsjava connect --help");
            return 2;
        }
        ConsoleListener listener = new ConsoleListener(out, err, !pipe);
        WebSocketConnection connection;
        try {
            connection = WebSocketClient.connect(uri, listener, config);
        } catch (IOException | IllegalArgumentException e) {
            err.println("connect: " + uri + ": " + e.getMessage());
            return 1;
        }
        if (!pipe) {
            err.println("connected to " + uri + (connection.subprotocol() == null ? "" : ", subprotocol " + connection.subprotocol())
                    + (connection.extensions() == null ? "" : ", " + connection.extensions()) + " (Ctrl-D closes)");
        }
        long wait = waitMillis;
        Thread input = new Thread(() -> sendLines(in, connection, listener, wait, err), "wsjava-connect-input");
        input.setDaemon(true);      // the server may close first, while this thread waits for a line
        input.start();
        return listener.awaitClose() ? 0 : 1;
    }

    /** Applies one option; true when it asks for the pipe mode. */
    private static boolean apply(ClientConfig config, String name, String value) {
        switch (name) {
            case "header":
                int colon = value.indexOf(':');
                if (colon < 1) {
                    throw new IllegalArgumentException("--header needs NAME:VALUE, got " + value);
                }
                config.header(value.substring(0, colon).trim(), value.substring(colon + 1).trim());
                return false;
            case "subprotocol": config.addSubprotocol(value); return false;
            case "pin": config.pinCertificate(value); return false;
            case "max-message": config.maxMessageSize(Units.bytesInt(name, value)); return false;
            case "connect-timeout": config.connectTimeoutMillis(Units.millisInt(name, value)); return false;
            case "deflate": config.compression(true); return false;
            case "no-deflate": config.compression(false); return false;
            case "pipe": return true;
            default: throw new IllegalArgumentException("unknown option --" + name);
        }
    }

    /** Each line read is one text message; the end of the input starts the close handshake, {@code waitMillis} later. */
    private static void sendLines(InputStream in, WebSocketConnection connection, ConsoleListener listener, long waitMillis,
            PrintStream err) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (!connection.sendText(line)) {
                    err.println("connect: not sent (the connection is closing or its send queue is full): " + line);
                }
            }
        } catch (IOException e) {
            err.println("connect: reading the input failed: " + e.getMessage());
        }
        try {
            if (listener.closedWithin(waitMillis)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connection.close(1000, "");
    }
}
