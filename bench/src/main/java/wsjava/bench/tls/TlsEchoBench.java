package wsjava.bench.tls;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import wsjava.bench.EchoBench;
import wsjava.bench.MaskBench;
import wsjava.bench.Options;
import wsjava.bench.Progress;
import wsjava.bench.Report;
import wsjava.tls.SelfSignedCertificate;

/**
 * {@code ./wsjava bench tls}: wss:// echo, WSJava against Netty, both with the JDK's TLS and the
 * same throwaway certificate (EC P-256), msgs/s at 1 KiB and 64 KiB with both sides' CPU.
 */
public final class TlsEchoBench {

    private TlsEchoBench() {
    }

    /** Runs it; false when an echo was wrong or a run failed. */
    public static boolean run(List<String> args) throws Exception {
        boolean smoke = args.contains("--smoke");
        boolean quick = args.contains("--quick");
        Path out = Path.of(Options.value(args, "--out", "results"));
        int[] sizes = smoke ? new int[] {1024} : new int[] {1024, 64 * 1024};
        int connections = smoke ? 2 : 16;
        double warmup = smoke ? 0.2 : quick ? 0.5 : 1.0;
        double measure = smoke ? 0.5 : quick ? 1.5 : 3.0;
        boolean pin = !smoke && EchoBench.canPin();
        Files.createDirectories(out);
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        Path cert = out.resolve("tls-bench-cert.pem");
        Path key = out.resolve("tls-bench-key.pem");
        Files.writeString(cert, pem("CERTIFICATE", certificate.certificate().getEncoded()));
        Files.writeString(key, pem("PRIVATE KEY", certificate.keys().getPrivate().getEncoded()));
        List<EchoBench.Peer> peers = List.of(
                EchoBench.peer("WSJava", "wsjava.cli.Main", List.of("serve", "--tls-cert", cert.toString(), "--tls-key", key.toString(), "--port")),
                EchoBench.peer("Netty", "wsjava.bench.peers.NettyEchoServer", List.of("--tls", cert.toString(), key.toString())));
        SSLContext client = trusting(certificate);
        System.out.printf(Locale.ROOT, "wss echo (%s): %d servers x %d sizes, %d connections, %.1f s each%s%n",
                smoke ? "smoke" : quick ? "quick" : "full", peers.size(), sizes.length, connections, measure, pin ? ", server pinned to core 0" : "");
        Report table = new Report(List.of("server", "size", "msgs/s", "MB/s each way", "server CPU %", "client CPU %", "note"));
        Map<String, Double> rate = new LinkedHashMap<>();
        Progress progress = new Progress("tls", (long) peers.size() * sizes.length);
        boolean ok = true;
        try {
            for (EchoBench.Peer peer : peers) {
                int port = EchoBench.freePort();
                Process server = EchoBench.start(peer, port, pin, out);
                try {
                    for (int size : sizes) {
                        progress.detail(peer.name() + " " + MaskBench.sizeName(size));
                        double serverCpu0 = wsjava.bench.deflate.ProcessCpu.seconds(server.pid());
                        double clientCpu0 = wsjava.bench.deflate.ProcessCpu.seconds(ProcessHandle.current().pid());
                        long t0 = System.nanoTime();
                        wsjava.bench.BlockingLoad.Result r = TlsEchoClient.run(client, port, connections, size, warmup, measure);
                        double wall = (System.nanoTime() - t0) / 1e9;
                        double serverCpu = 100 * (wsjava.bench.deflate.ProcessCpu.seconds(server.pid()) - serverCpu0) / wall;
                        double clientCpu = 100 * (wsjava.bench.deflate.ProcessCpu.seconds(ProcessHandle.current().pid()) - clientCpu0) / wall;
                        progress.advance(1);
                        double msgs = r.messages / measure;
                        rate.put(peer.name() + "|" + size, msgs);
                        String note = (r.mismatches == 0 ? "" : r.mismatches + " echoes differed; ") + r.error;
                        ok &= r.mismatches == 0 && r.error.isEmpty() && r.messages > 0;
                        table.add(List.of(peer.name(), MaskBench.sizeName(size), Report.fixed(msgs, 0), Report.fixed(msgs * size / 1e6, 1),
                                Report.fixed(serverCpu, 0), Report.fixed(clientCpu, 0), note.trim()));
                    }
                } finally {
                    EchoBench.stop(server);
                }
            }
        } finally {
            Files.deleteIfExists(key);
            Files.deleteIfExists(cert);
        }
        progress.finish();
        System.out.println();
        table.print(System.out);
        table.writeCsv(out.resolve("tls.csv"));
        StringBuilder summary = new StringBuilder("ratios (msgs/s, same run):");
        for (int size : sizes) {
            Double w = rate.get("WSJava|" + size);
            Double n = rate.get("Netty|" + size);
            summary.append(String.format(Locale.ROOT, " %s: WSJava/Netty %s;", MaskBench.sizeName(size),
                    w == null || n == null || n == 0 ? "n/a" : Report.fixed(w / n, 2) + "x"));
        }
        System.out.println(summary);
        System.out.println("wrote " + out.resolve("tls.csv"));
        return ok;
    }

    private static SSLContext trusting(SelfSignedCertificate certificate) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("bench", certificate.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
