package wsjava.bench.attack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import wsjava.bench.EchoBench;

/**
 * The attacked server's JVM ({@link AttackServer}), started fresh for every attack: its port, its
 * heap after a full GC (asked over stdin), its RSS and CPU time (from /proc), and whether it is
 * still alive. {@code heap} is a -Xmx value, or null for the JVM's default; {@code arenas} the
 * glibc MALLOC_ARENA_MAX to run it with ("unset" for glibc's default).
 */
final class ServerUnderTest implements AutoCloseable {

    private static final double TICKS_PER_SECOND = 100.0;     // USER_HZ on Linux

    final int port;
    final String heap;
    private final Process process;
    private final BufferedReader out;
    private final OutputStream commands;
    private final Path log;
    /** The JVM's maximum heap, as it last said. */
    long maxHeap = -1;
    /** Bytes the server counted in its inbound budget, as it last said (-1: not known). */
    long inboundBuffered = -1;

    private ServerUnderTest(Process process, BufferedReader out, int port, String heap, Path log) {
        this.process = process;
        this.out = out;
        this.commands = process.getOutputStream();
        this.port = port;
        this.heap = heap;
        this.log = log;
    }

    /**
     * Starts {@code mode} ("echo" or "events") with {@code options}. {@code libraryJar}, when not
     * null, goes first on the class path, so the server classes come from it (an older build).
     */
    static ServerUnderTest start(String name, String mode, String heap, List<String> options, Path libraryJar, String arenas,
                                 String transport, Path dir) throws IOException {
        int port = EchoBench.freePort();
        List<String> command = new ArrayList<>(List.of(java(transport)));
        if (transport.equals("ffm")) {
            command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-Dwsjava.transport=ffm"));
        }
        if (heap != null) {
            command.add("-Xmx" + heap);
        }
        String classPath = System.getProperty("java.class.path");
        command.addAll(List.of("-XX:+UseG1GC", "-cp", libraryJar == null ? classPath : libraryJar + java.io.File.pathSeparator + classPath,
                AttackServer.class.getName(), mode, "--port", Integer.toString(port)));
        command.addAll(options);
        Files.createDirectories(dir);
        Path log = dir.resolve("server-" + name + "-" + (heap == null ? "default" : heap) + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
        if (arenas.equals("unset")) {
            builder.environment().remove("MALLOC_ARENA_MAX");
        } else {
            builder.environment().put("MALLOC_ARENA_MAX", arenas);     // as ./wsjava serve runs it
        }
        Process p = builder.start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String first = lines.readLine();
        if (first == null || !first.startsWith("listening on")) {
            p.destroyForcibly();
            throw new IOException("the attacked server did not start (" + first + "); see " + log);
        }
        if (!first.endsWith(" (" + transport + ")")) {        // an attack on FFM that fell back to NIO would test NIO twice
            p.destroyForcibly();
            throw new IOException("the attacked server runs on another transport than " + transport + ": " + first);
        }
        return new ServerUnderTest(p, lines, port, heap, log);
    }

    /** The java to start the server with: this JVM's, or for FFM the newest JDK 22 or later's. */
    private static String java(String transport) throws IOException {
        if (transport.equals("ffm")) {
            Path jdk = wsjava.bench.NewerJdkPeer.newestFrom(22);
            if (jdk == null) {
                throw new IOException("the FFM transport needs a JDK 22 or later, and none was found under /usr/lib/jvm");
            }
            return jdk.resolve("bin/java").toString();
        }
        if (!transport.equals("nio")) {
            throw new IllegalArgumentException("--transport must be nio or ffm, was " + transport);
        }
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Heap in use after a full GC, in bytes; -1 when the JVM could not say (dead or out of memory). */
    long heapAfterGc() {
        try {
            commands.write("gc\n".getBytes(StandardCharsets.US_ASCII));
            commands.flush();
            String line = out.readLine();
            if (line == null || !line.startsWith("heap ")) {
                return -1;
            }
            String[] words = line.split(" ");
            maxHeap = Long.parseLong(words[2]);
            inboundBuffered = words.length > 3 ? Long.parseLong(words[3]) : -1;
            return Long.parseLong(words[1]);
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** Bytes of events its slow kernel (a WL-style server's) has handled so far; -1 when it could not say. */
    long kernelTook() {
        try {
            commands.write("kernel\n".getBytes(StandardCharsets.US_ASCII));
            commands.flush();
            String line = out.readLine();
            return line != null && line.startsWith("kernel ") ? Long.parseLong(line.substring(7)) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The attacked server's Redis fan-out, as it counts: {oversized messages dropped, messages
     * received from Redis, the server's message limit}; null when it could not say.
     */
    long[] redisCounts() {
        try {
            commands.write("redis\n".getBytes(StandardCharsets.US_ASCII));
            commands.flush();
            String line = out.readLine();
            if (line == null || !line.startsWith("redis ")) {
                return null;
            }
            String[] words = line.split(" ");
            return new long[] {Long.parseLong(words[1]), Long.parseLong(words[2]), Long.parseLong(words[3])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    long rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return 1024 * Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the server is gone
        }
        return -1;
    }

    /** User plus system CPU seconds the server has used so far. */
    double cpuSeconds() {
        return cpuSecondsOf(process.pid());
    }

    static double cpuSecondsOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Lines of the server's log that say an I/O thread gave up or a thread died. */
    long deathsInLog() throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.contains("Exception in thread")
                || l.contains("I/O thread") && l.contains("failed")).count();
    }

    /** Lines of the server's log that contain {@code text}. */
    long logLinesContaining(String text) throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.contains(text)).count();
    }

    /**
     * How often the server's log reports running out of memory, handled or not: an uncaught
     * OutOfMemoryError, or the guard's prepared line (it closed a connection with 1011, so a
     * message may have been lost).
     */
    long outOfMemoryInLog() throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.contains("OutOfMemoryError") || l.contains("out of memory")).count();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
