package wsjava.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * What a JFR recording of a server says, as tables: the methods the CPU samples were in (self, and
 * anywhere on the stack), and where the allocation samples' bytes came from (the allocating frames).
 * {@code scripts/profile-echo.sh} records a server under the C load client and prints this.
 *
 * <p>JFR samples only threads running Java code; time in system calls shows up as the share of
 * the server's CPU that is system time, which the script prints beside it.
 */
public final class JfrSummary {

    private final Map<String, Long> self = new HashMap<>();
    private final Map<String, Long> anywhere = new HashMap<>();
    private final Map<String, Long> allocated = new HashMap<>();
    private long samples;
    private long allocatedBytes;

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: JfrSummary RECORDING.jfr [ROWS]");
            System.exit(2);
        }
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        JfrSummary summary = new JfrSummary();
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            summary.add(event);
        }
        summary.print(rows);
    }

    private void add(RecordedEvent event) {
        RecordedStackTrace stack = event.getStackTrace();
        if (stack == null || stack.getFrames().isEmpty()) {
            return;
        }
        List<RecordedFrame> frames = stack.getFrames();
        String type = event.getEventType().getName();
        if (type.equals("jdk.ExecutionSample")) {
            samples++;
            self.merge(name(frames.get(0)), 1L, Long::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame frame : frames) {
                if (seen.add(name(frame))) {
                    anywhere.merge(name(frame), 1L, Long::sum);
                }
            }
        } else if (type.equals("jdk.ObjectAllocationSample")) {
            long weight = event.getLong("weight");
            allocatedBytes += weight;
            StringBuilder site = new StringBuilder(simple(event.getClass("objectClass").getName()));
            for (int i = 0; i < Math.min(3, frames.size()); i++) {
                site.append(i == 0 ? " in " : " < ").append(name(frames.get(i)));
            }
            allocated.merge(site.toString(), weight, Long::sum);
        }
    }

    private void print(int rows) {
        System.out.printf("%,d CPU samples of Java code%n%n", samples);
        table("self", self, samples, rows);
        table("on the stack", anywhere, samples, rows);
        System.out.printf("%,.0f MB allocated (sampled weight)%n%n", allocatedBytes / 1e6);
        table("allocation site", allocated, allocatedBytes, rows);
    }

    private static void table(String title, Map<String, Long> counts, long total, int rows) {
        System.out.printf("| share | %s |%n|---:|---|%n", title);
        counts.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .limit(rows)
                .forEach(e -> System.out.printf("| %.1f%% | %s |%n", 100.0 * e.getValue() / Math.max(1, total), e.getKey()));
        System.out.println();
    }

    private static String name(RecordedFrame frame) {
        RecordedMethod method = frame.getMethod();
        return simple(method.getType().getName()) + "." + method.getName();
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
