package wsjava.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/** The real CLI in its own JVM: one ready line, echo, and a clean stop on SIGTERM. */
class ServeCommandTest {

    /** {@code serve --port 0} and {@code extra} in a JVM of its own, on this test's JDK and class path. */
    private static ProcessBuilder serveCommand(String... extra) {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "wsjava.cli.Main", "serve", "--port", "0"));
        command.addAll(List.of(extra));
        return new ProcessBuilder(command);
    }

    private static Process serve(String... extra) throws Exception {
        return serveCommand(extra).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    @Test
    void printsOneReadyLineEchoesAndStopsOnSigterm() throws Exception {
        Process p = serve();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            Matcher m = Pattern.compile("listening on ws://127\\.0\\.0\\.1:(\\d+)/").matcher(line);
            assertTrue(m.matches(), "ready line: " + line);
            int port = Integer.parseInt(m.group(1));
            try (RawClient c = RawClient.open(port)) {
                byte[] hi = "hi".getBytes(StandardCharsets.UTF_8);
                c.send(c.writer.frame(OpCode.TEXT, true, hi, 0, 2));
                assertEquals("hi", new String(c.readFrame(5_000).payload(), StandardCharsets.UTF_8));
                // SIGTERM from outside: Process.destroy() would also close our end of its stdout.
                new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor(5, TimeUnit.SECONDS);
                Frame close = c.readFrame(5_000);
                assertEquals(OpCode.CLOSE, close.opcode());
                assertEquals(1001, (close.payload()[0] & 0xFF) << 8 | (close.payload()[1] & 0xFF));
                c.send(c.writer.close(1001, ""));
            }
            assertEquals(null, out.readLine(), "nothing printed after the ready line");
            assertTrue(p.waitFor(10, TimeUnit.SECONDS), "stopped after SIGTERM");
        } finally {
            p.destroyForcibly();
        }
    }

    /** The Java, transport and masking kernel it runs on go to stderr, so stdout keeps its one line. */
    @Test
    void saysOnStderrWhichJavaItRunsOn() throws Exception {
        Process p = serveCommand().redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
            String line = err.readLine();
            while (line != null && !line.startsWith("running on")) {     // the JVM's own lines ("Picked up ...") may come first
                line = err.readLine();
            }
            // The kernel depends on the child's flags (this one has no Vector API module): any name will do.
            assertTrue(String.valueOf(line).matches(Pattern.quote("running on Java " + System.getProperty("java.version")
                    + " (" + System.getProperty("java.home") + "), ") + "(NIO|FFM) transport, masking kernel [a-z0-9-]+"), "stderr: " + line);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void badOptionsExitWith2AndHelpListsEveryOption() throws Exception {
        Process bad = serve("--port", "notanumber");
        assertTrue(bad.waitFor(10, TimeUnit.SECONDS));
        assertEquals(2, bad.exitValue());
        Process help = serve("--help");
        String text = new String(help.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(help.waitFor(10, TimeUnit.SECONDS));
        for (String option : List.of("--host", "--port", "--io-threads", "--transport", "--max-message", "--max-frame", "--max-header",
                "--max-connections", "--handshake-timeout", "--close-timeout", "--ping-interval", "--idle-timeout", "--max-topics",
                "--outbound-limit", "--fragment-size", "--allow-origin", "--allow-any-origin", "--token", "--subprotocol",
                "--no-demo-page", "--compression", "--compression-level", "--compression-threshold", "--compression-idle-release",
                "--no-context-takeover", "--tls-cert", "--tls-key", "--tls-keystore", "--tls-password", "--tls-self-signed", "--inbound-budget", "--allow-host-origin", "--no-token",
                "--max-inflation-ratio", "--partial-message-timeout", "--max-handshakes", "--max-handshakes-per-address", "--head-timeout",
                "--zlib-budget", "--token-file", "--require-token", "--trusted-proxy")) {
            assertTrue(text.contains(option), "help lists " + option);
        }
    }

    @Test
    void selfSignedServesWssAndPrintsTheFingerprintItServes() throws Exception {
        Process p = serve("--tls-self-signed");
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            Matcher m = Pattern.compile("listening on wss://127\\.0\\.0\\.1:(\\d+)/").matcher(String.valueOf(out.readLine()));
            assertTrue(m.matches());
            String fingerprintLine = out.readLine();
            Matcher f = Pattern.compile("self-signed certificate, SHA-256 ([0-9A-F:]{95}) .*https://127\\.0\\.0\\.1:" + m.group(1) + "/\\)")
                    .matcher(String.valueOf(fingerprintLine));
            assertTrue(f.matches(), fingerprintLine);
            javax.net.ssl.SSLContext trustAll = javax.net.ssl.SSLContext.getInstance("TLS");
            trustAll.init(null, new javax.net.ssl.TrustManager[] {new javax.net.ssl.X509TrustManager() {
                @Override public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String type) { }
                @Override public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String type) { }
                @Override public java.security.cert.X509Certificate[] getAcceptedIssuers() { return new java.security.cert.X509Certificate[0]; }
            }}, null);
            try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) trustAll.getSocketFactory().createSocket("127.0.0.1", Integer.parseInt(m.group(1)))) {
                s.startHandshake();
                byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(s.getSession().getPeerCertificates()[0].getEncoded());
                StringBuilder hex = new StringBuilder();
                for (byte d : digest) {
                    hex.append(hex.length() == 0 ? "" : ":").append(String.format("%02X", d));
                }
                assertEquals(f.group(1), hex.toString(), "the printed fingerprint is the served certificate's");
            }
        } finally {
            p.destroyForcibly();
        }
    }
}
