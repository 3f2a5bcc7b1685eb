package wsjava.bench;

import java.util.Arrays;
import java.util.List;

/** {@code ./wsjava bench <command>}: the benchmark harnesses, kept out of the library jar. */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] argv) throws Exception {
        List<String> args = Arrays.asList(argv);
        String command = args.isEmpty() ? "--help" : args.get(0);
        List<String> rest = args.subList(Math.min(1, args.size()), args.size());
        switch (command) {
            case "mask":
                MaskBench.run(rest);
                break;
            case "mask-direct":
                DirectMaskBench.run(rest);
                break;
            case "echo":
                EchoBench.run(rest);
                break;
            case "languages":
                LanguagesBench.run(rest);
                break;
            case "deflate":
                System.exit(wsjava.bench.deflate.DeflateBench.run(rest) ? 0 : 1);
                break;
            case "tls":
                System.exit(wsjava.bench.tls.TlsEchoBench.run(rest) ? 0 : 1);
                break;
            case "fanout":
                System.exit(wsjava.bench.fanout.FanoutBench.run(rest) ? 0 : 1);
                break;
            case "attack":
                System.exit(wsjava.bench.attack.AttackBench.run(rest).passed() ? 0 : 1);
                break;
            case "soak":
                System.exit(wsjava.bench.soak.SoakBench.run(rest).passed() ? 0 : 1);
                break;
            default:
                System.out.println("usage: ./wsjava bench <mask|mask-direct|languages|echo|deflate|tls|fanout|soak|attack|idle> [--quick|--smoke] [--out DIR]");
                System.out.println("  mask       JMH: masking variants (mask6/mask7 style, Netty style, WSJava scalar/SIMD, arraycopy)");
                System.out.println("  mask-direct JMH: unmasking in place in a direct buffer (the server's read path) vs System.arraycopy");
                System.out.println("  languages  masking 16 KiB, 1 MiB, 16 MiB in Java, C, Python, Node and Erlang, checked against one reference");
                System.out.println("  echo       end-to-end echo: WSJava vs Netty, Java-WebSocket, Jetty; msgs/s, p50/p99, 16 MiB, idle connections (--idle N)");
                System.out.println("  deflate    compressed echo of WL-expression text vs Netty and Jetty with deflate; memory of 10,000 deflate connections");
                System.out.println("  tls        wss:// echo: WSJava vs Netty, both with the JDK's TLS, 1 KiB and 64 KiB, both sides' CPU");
                System.out.println("  fanout     topic fan-out: deliveries/s and latency for 1 server, 1 with Redis, 3 over one Redis; CPU of each (--subscribers N --topics N)");
                System.out.println("  soak       chaos: well-behaved clients (loss/dup/order checked) among misbehaving ones; RSS over time (--seconds N --clients N --chaos N)");
                System.out.println("  attack     issue 20's attacks, bounded, on a server JVM of its own (-Xmx128m and default heap): its heap, RSS, a bystander's p99, CPU");
                System.out.println("  idle       ./wsjava bench idle [N] [PORT]: RSS and live heap of ./wsjava serve holding N idle connections (scripts/idle-memory.sh)");
                System.out.println("  --quick shortens each run; --smoke uses tiny sizes and only checks the harness; results go to --out (results/)");
                System.exit("--help".equals(command) ? 0 : 2);
        }
    }
}
