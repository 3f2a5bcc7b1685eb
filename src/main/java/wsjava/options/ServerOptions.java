package wsjava.options;

import wsjava.server.ServerConfig;

/**
 * Named options for a {@link ServerConfig}, shared by the CLI ({@code --port 8080}) and the WL
 * bridge ({@code "port" -> "8080"}), so both accept exactly the same settings.
 */
public final class ServerOptions {

    /** Options that take no value. */
    public static final String[] FLAGS = {"allow-any-origin", "allow-host-origin", "no-context-takeover", "no-demo-page", "no-token",
        "require-token", "tls-self-signed"};

    /** Options that take a value (the TLS ones included), so a command line can tell an unknown option from a missing value. */
    public static final String[] VALUE_OPTIONS = {"host", "port", "io-threads", "transport", "max-message", "max-frame", "max-header", "max-connections",
        "handshake-timeout", "close-timeout", "ping-interval", "idle-timeout", "max-topics", "topic-budget", "inbound-budget",
        "max-inflation-ratio", "partial-message-timeout", "max-handshakes", "max-handshakes-per-address", "trusted-proxy", "head-timeout", "zlib-budget",
        "token-file", "outbound-limit", "output-budget", "fragment-size", "allow-origin", "token", "subprotocol", "compression",
        "compression-level", "compression-threshold", "compression-idle-release", "page", "tls-cert", "tls-key", "tls-keystore",
        "tls-password"};

    private ServerOptions() {
    }

    private static wsjava.server.IoTransport transport(String value) {
        switch (String.valueOf(value)) {
            case "auto": return wsjava.server.IoTransport.AUTO;
            case "nio": return wsjava.server.IoTransport.NIO;
            case "ffm": return wsjava.server.IoTransport.FFM;
            default: throw new IllegalArgumentException("transport must be auto, nio or ffm, was " + value);
        }
    }

    public static boolean isFlag(String name) {
        for (String f : FLAGS) {
            if (f.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Applies options in order ({@code values} null for flags). TLS options are collected and become
     * the config's SSLContext at the end; what they did is returned (a self-signed fingerprint).
     */
    public static TlsOptions applyAll(ServerConfig config, java.util.List<String> names, java.util.List<String> values) {
        TlsOptions tls = new TlsOptions();
        for (int i = 0; i < names.size(); i++) {
            if (TlsOptions.handles(names.get(i))) {
                tls.apply(names.get(i), values.get(i));
            } else {
                apply(config, names.get(i), values.get(i));
            }
        }
        javax.net.ssl.SSLContext context = tls.context();
        if (context != null) {
            config.tls(context);
        }
        return tls;
    }

    /** Applies one option; throws IllegalArgumentException with a readable message when it is wrong. */
    public static void apply(ServerConfig config, String name, String value) {
        switch (name) {
            case "host": config.host(value); break;
            case "port": config.port(parseInt(name, value)); break;
            case "io-threads": config.ioThreads(parseInt(name, value)); break;
            case "transport": config.transport(transport(value)); break;
            case "max-message": config.maxMessageSize(Units.bytesInt(name, value)); break;
            case "max-frame": config.maxFramePayload(Units.bytesInt(name, value)); break;
            case "max-header": config.maxHeaderBytes(Units.bytesInt(name, value)); break;
            case "max-connections": config.maxConnections(parseInt(name, value)); break;
            case "handshake-timeout": config.handshakeTimeoutMillis(Units.millisInt(name, value)); break;
            case "close-timeout": config.closeTimeoutMillis(Units.millisInt(name, value)); break;
            case "ping-interval": config.pingIntervalMillis(Units.millisInt(name, value)); break;
            case "idle-timeout": config.idleTimeoutMillis(Units.millisInt(name, value)); break;
            case "max-topics": config.maxTopicsPerConnection(parseInt(name, value)); break;
            case "topic-budget": config.topicBudgetBytes(Units.bytes(name, value)); break;
            case "inbound-budget": config.inboundBudgetBytes(Units.bytes(name, value)); break;
            case "max-inflation-ratio": config.maxInflationRatio(parseInt(name, value)); break;
            case "partial-message-timeout": config.partialMessageTimeoutMillis(Units.millisInt(name, value)); break;
            case "max-handshakes": config.maxHandshakes(parseInt(name, value)); break;
            case "max-handshakes-per-address": config.maxHandshakesPerAddress(parseInt(name, value)); break;
            case "head-timeout": config.headTimeoutMillis(Units.millisInt(name, value)); break;
            case "zlib-budget": config.zlibBudgetBytes(Units.bytes(name, value)); break;
            case "token-file": config.accessToken(checkedToken(TokenFile.read(value))); break;
            case "require-token": config.requireToken(value == null || Boolean.parseBoolean(value)); break;
            case "outbound-limit": config.outboundLimitBytes(Units.bytes(name, value)); break;
            case "output-budget": config.outputBudgetBytes(Units.bytes(name, value)); break;
            case "fragment-size": config.outboundFragmentSize(Units.bytesInt(name, value)); break;
            case "allow-origin": config.addAllowedOrigin(value); break;
            case "token": config.accessToken(checkedToken(value)); break;
            case "subprotocol": config.addSubprotocol(value); break;
            case "trusted-proxy": config.addTrustedProxy(value); break;
            case "allow-any-origin": config.allowAnyOrigin(value == null || Boolean.parseBoolean(value)); break;
            case "allow-host-origin": config.allowHostOrigin(value == null || Boolean.parseBoolean(value)); break;
            case "no-token": config.allowNoToken(value == null || Boolean.parseBoolean(value)); break;
            case "compression": config.compression(config.compression().enabled(onOff(name, value))); break;
            case "compression-level": config.compression(config.compression().level(parseInt(name, value))); break;
            case "compression-threshold": config.compression(config.compression().thresholdBytes(Units.bytesInt(name, value))); break;
            case "compression-idle-release": config.compression(config.compression().idleReleaseMillis(Units.millis(name, value))); break;
            case "no-context-takeover": config.compression(config.compression().contextTakeover(value != null && !Boolean.parseBoolean(value))); break;
            case "no-demo-page": config.serveDemoPage(value != null && !Boolean.parseBoolean(value)); break;
            case "page": config.page(readPage(value)); break;
            default: throw new IllegalArgumentException("unknown option " + name);
        }
    }

    /** The file --page names, as UTF-8 text. */
    private static String readPage(String file) {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of(file), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("page: cannot read " + file + ": " + e.getMessage());
        }
    }

    /** A token given by name must be long enough to resist guessing. */
    private static String checkedToken(String token) {
        if (token.length() < ServerConfig.MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException("a token needs at least " + ServerConfig.MIN_TOKEN_LENGTH + " characters, this one has "
                    + token.length());
        }
        return token;
    }

    /** "on"/"true" or "off"/"false", else IllegalArgumentException naming the option (shared with the client's options). */
    public static boolean onOff(String name, String value) {
        if ("on".equals(value) || "true".equals(value)) {
            return true;
        }
        if ("off".equals(value) || "false".equals(value)) {
            return false;
        }
        throw new IllegalArgumentException(name + " needs on or off, got " + value);
    }

    /** A whole number, else IllegalArgumentException naming the option (shared with the client's options). */
    public static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs a whole number, got " + value);
        }
    }
}
