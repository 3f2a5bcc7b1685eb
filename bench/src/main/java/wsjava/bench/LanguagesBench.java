package wsjava.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import wsjava.mask.KernelAccess;

/**
 * Masks the same payloads (16 KiB, 1 MiB, 16 MiB; byte i = i*131+7, key 37 fa 21 3d) in Java,
 * C (the article's mask6 and mask7 styles, gcc -O2), Python websockets (C and pure), Node ws
 * (bufferutil and pure JS) and Erlang crypto:exor, each timed in its own runtime (median of
 * repeated calls), and checks every output against one reference.
 */
public final class LanguagesBench {

    static final int KEY = 0x37FA213D;
    static final byte[] KEY_BYTES = {0x37, (byte) 0xFA, 0x21, 0x3D};

    /** One external harness: its name for "did not run" rows, and how to start it. */
    private static final class Harness {
        final String label;
        final List<String> produces;
        final List<String> command;
        final Map<String, String> env;
        final String missing;

        Harness(String label, List<String> produces, List<String> command, Map<String, String> env, String missing) {
            this.label = label;
            this.produces = produces;
            this.command = command;
            this.env = env;
            this.missing = missing;
        }
    }

    private LanguagesBench() {
    }

    public static void run(List<String> args) throws Exception {
        boolean smoke = args.contains("--smoke");
        Path out = Path.of(Options.value(args, "--out", "results"));
        Path root = Path.of(System.getProperty("wsjava.root", ".")).toAbsolutePath();
        Path scripts = root.resolve("bench/languages");
        int[] sizes = smoke ? new int[] {16 * 1024} : new int[] {16 * 1024, 1 << 20, 16 << 20};
        // Every implementation writes its output here, and the children's TMPDIR points here too (Python
        // builds websockets' C speedups in a temporary directory): checked, then deleted, so a run leaves nothing.
        Path work = Files.createTempDirectory("wsjava-languages");
        try {
            measure(out, root, scripts, sizes, work);
        } finally {
            TempFiles.deleteTree(work);
        }
    }

    private static void measure(Path out, Path root, Path scripts, int[] sizes, Path work) throws Exception {
        System.out.println("masking across languages: sizes " + Arrays.toString(sizes));

        Map<String, Long> nanos = new LinkedHashMap<>();
        Map<String, String> notes = new LinkedHashMap<>();
        List<String> impls = new ArrayList<>();
        javaCore(sizes, work, nanos, impls);

        for (Harness h : harnesses(root, scripts, work, sizes)) {
            System.out.println("running " + h.label + " ...");
            if (h.missing != null) {
                h.produces.forEach(p -> notes.put(p, "did not run: " + h.missing));
                h.produces.forEach(p -> addOnce(impls, p));
                continue;
            }
            ProcessBuilder pb = new ProcessBuilder(h.command).redirectErrorStream(true);
            pb.environment().putAll(h.env);
            pb.environment().put("TMPDIR", work.toString());
            Process p = pb.start();
            String output = new String(p.getInputStream().readAllBytes());
            int exit = p.waitFor();
            for (String line : output.split("\n")) {
                String[] f = line.trim().split(" ", 4);
                if (f[0].equals("RESULT") && f.length == 4) {
                    addOnce(impls, f[1]);
                    nanos.put(f[1] + "|" + f[2], Long.parseLong(f[3].trim()));
                } else if (f[0].equals("SKIP") && f.length >= 2) {
                    addOnce(impls, f[1]);
                    notes.put(f[1], "did not run: " + line.trim().substring(6 + f[1].length()));
                }
            }
            if (exit != 0) {
                h.produces.forEach(name -> notes.putIfAbsent(name, "did not run: exit " + exit + ": " + lastLine(output)));
                h.produces.forEach(name -> addOnce(impls, name));
            }
        }

        String core = KernelAccess.vectorAvailable() ? "java-wsjava-" + KernelAccess.vectorName() : "java-wsjava-scalar";
        Report table = new Report(List.of("implementation", "size", "median", "GB/s", "x Java core time", "output"));
        double[][] chart = new double[sizes.length][impls.size()];
        List<String> groups = new ArrayList<>();
        boolean allChecked = true;
        for (int si = 0; si < sizes.length; si++) {
            int size = sizes[si];
            groups.add(MaskBench.sizeName(size));
            byte[] reference = reference(size);
            Long coreNanos = nanos.get(core + "|" + size);
            for (int ii = 0; ii < impls.size(); ii++) {
                String impl = impls.get(ii);
                Long ns = nanos.get(impl + "|" + size);
                if (ns == null) {
                    chart[si][ii] = Double.NaN;
                    table.add(List.of(impl, MaskBench.sizeName(size), "-", "-", "-", notes.getOrDefault(impl, "did not run: no result")));
                    continue;
                }
                String check = checkOutput(work.resolve(impl + "-" + size + ".bin"), reference);
                allChecked &= check.equals("identical");
                chart[si][ii] = ns / 1000.0;
                table.add(List.of(impl, MaskBench.sizeName(size), formatNanos(ns), Report.fixed((double) size / ns, 2),
                        coreNanos == null ? "n/a" : Report.fixed((double) ns / coreNanos, 2), check));
            }
        }
        System.out.println();
        table.print(System.out);
        table.writeCsv(out.resolve("languages.csv"));
        Report.barChart(out.resolve("languages.png"), "WebSocket masking across languages (median per call)", "microseconds per call", groups, impls, chart);
        System.out.println("wrote " + out.resolve("languages.csv") + " and " + out.resolve("languages.png"));
        int mib = 1 << 20;
        Long c7 = nanos.get("c-mask7-style|" + mib);
        Long java = nanos.get(core + "|" + mib);
        if (c7 != null && java != null) {
            System.out.printf(Locale.ROOT, "summary: 1 MiB, Java core (%s) vs C mask7-style: %.2fx (target >= 1.0)%n", core, (double) c7 / java);
        }
        if (!allChecked) {
            throw new IllegalStateException("an implementation's output differs from the reference; see the table");
        }
    }

    private static void javaCore(int[] sizes, Path work, Map<String, Long> nanos, List<String> impls) throws IOException {
        byte[] warm = payload(16 * 1024);
        byte[] warmOut = new byte[warm.length];
        for (int i = 0; i < 20_000; i++) {
            KernelAccess.scalar(warm, warmOut, KEY);
            if (KernelAccess.vectorAvailable()) {
                KernelAccess.vector(warm, warmOut, KEY);
            }
        }
        Map<String, BiConsumer<byte[], byte[]>> kernels = new LinkedHashMap<>();
        kernels.put("java-wsjava-scalar", (in, o) -> KernelAccess.scalar(in, o, KEY));
        if (KernelAccess.vectorAvailable()) {
            kernels.put("java-wsjava-" + KernelAccess.vectorName(), (in, o) -> KernelAccess.vector(in, o, KEY));
        }
        for (Map.Entry<String, BiConsumer<byte[], byte[]>> k : kernels.entrySet()) {
            addOnce(impls, k.getKey());
            for (int size : sizes) {
                byte[] in = payload(size);
                byte[] o = new byte[size];
                int reps = Math.max(5, Math.min(2000, (32 << 20) / size));
                for (int r = 0; r < reps / 5 + 1; r++) {
                    k.getValue().accept(in, o);
                }
                long[] t = new long[reps];
                for (int r = 0; r < reps; r++) {
                    long s = System.nanoTime();
                    k.getValue().accept(in, o);
                    t[r] = System.nanoTime() - s;
                }
                Arrays.sort(t);
                nanos.put(k.getKey() + "|" + size, t[reps / 2]);
                Files.write(work.resolve(k.getKey() + "-" + size + ".bin"), o);
            }
        }
    }

    private static List<Harness> harnesses(Path root, Path scripts, Path work, int[] sizes) throws IOException, InterruptedException {
        List<String> sizeArgs = new ArrayList<>();
        for (int s : sizes) {
            sizeArgs.add(Integer.toString(s));
        }
        List<Harness> list = new ArrayList<>();
        Path exe = work.resolve("mask-c");
        String gccProblem = null;
        if (!EchoBench.onPath("gcc")) {
            gccProblem = "gcc is not installed";
        } else {
            Process gcc = new ProcessBuilder("gcc", "-O2", "-o", exe.toString(), scripts.resolve("mask.c").toString())
                    .redirectErrorStream(true).start();
            String log = new String(gcc.getInputStream().readAllBytes());
            if (gcc.waitFor() != 0) {
                gccProblem = "gcc failed: " + lastLine(log);
            }
        }
        list.add(new Harness("C (gcc -O2)", List.of("c-mask6-style", "c-mask7-style"), withArgs(List.of(exe.toString(), work.toString()), sizeArgs),
                Map.of(), gccProblem));
        boolean python = Files.isExecutable(Path.of("/usr/bin/python3"));
        list.add(new Harness("Python websockets", List.of("python-websockets-pure", "python-websockets-c"),
                withArgs(List.of("/usr/bin/python3", scripts.resolve("mask_python.py").toString(), work.toString()), sizeArgs),
                Map.of(), python ? null : "/usr/bin/python3 is not installed"));
        Path nodeModules = root.resolve("src/test/node/node_modules");
        String nodeProblem = !EchoBench.onPath("node") ? "node is not installed"
                : !Files.isDirectory(nodeModules.resolve("ws")) ? "npm package ws missing (./wsjava test installs it)" : null;
        List<String> node = withArgs(List.of("node", scripts.resolve("mask_node.js").toString(), work.toString()), sizeArgs);
        list.add(new Harness("Node ws + bufferutil", List.of("node-ws-bufferutil"), node, Map.of("NODE_PATH", nodeModules.toString()), nodeProblem));
        list.add(new Harness("Node ws, pure JS", List.of("node-ws-js"), node,
                Map.of("NODE_PATH", nodeModules.toString(), "WS_NO_BUFFER_UTIL", "1"), nodeProblem));
        list.add(new Harness("Erlang crypto:exor", List.of("erlang-crypto-exor"),
                withArgs(List.of("escript", scripts.resolve("mask_erlang.escript").toString(), work.toString()), sizeArgs),
                Map.of(), EchoBench.onPath("escript") ? null : "escript is not installed (Debian erlang-base, erlang-crypto)"));
        return list;
    }

    static byte[] payload(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 131 + 7);
        }
        return b;
    }

    /** The definition, byte by byte: what every implementation must produce. */
    static byte[] reference(int size) {
        byte[] b = payload(size);
        for (int i = 0; i < size; i++) {
            b[i] ^= KEY_BYTES[i & 3];
        }
        return b;
    }

    private static String checkOutput(Path file, byte[] reference) throws IOException {
        if (!Files.exists(file)) {
            return "NO OUTPUT";
        }
        return Arrays.equals(Files.readAllBytes(file), reference) ? "identical" : "DIFFERS";
    }

    private static String formatNanos(long ns) {
        return ns >= 1_000_000 ? Report.fixed(ns / 1e6, 2) + " ms" : Report.fixed(ns / 1e3, 2) + " us";
    }

    private static List<String> withArgs(List<String> base, List<String> more) {
        List<String> all = new ArrayList<>(base);
        all.addAll(more);
        return all;
    }

    private static void addOnce(List<String> list, String item) {
        if (!list.contains(item)) {
            list.add(item);
        }
    }

    private static String lastLine(String text) {
        String[] lines = text.trim().split("\n");
        return lines[lines.length - 1];
    }
}
