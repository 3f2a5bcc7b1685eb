package wsjava.bench;

import java.util.Collection;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/** JMH output reduced to a throttled progress line: one unit per finished benchmark. */
final class ProgressFormat implements OutputFormat {

    private final Progress progress;

    ProgressFormat(Progress progress) {
        this.progress = progress;
    }

    @Override
    public void startBenchmark(BenchmarkParams params) {
        String mode = params.getParam("mode");      // only MaskBenchmark has one
        progress.detail(params.getBenchmark().replaceAll(".*\\.", "") + (mode == null ? "" : " " + mode) + " " + params.getParam("size"));
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        progress.advance(1);
    }

    @Override public void iteration(BenchmarkParams b, IterationParams p, int i) { }
    @Override public void iterationResult(BenchmarkParams b, IterationParams p, int i, IterationResult r) { }
    @Override public void startRun() { }
    @Override public void endRun(Collection<RunResult> results) { }
    @Override public void print(String s) { }
    @Override public void println(String s) { }
    @Override public void flush() { }
    @Override public void close() { }
    @Override public void verbosePrintln(String s) { }
    @Override public void write(int b) { }
    @Override public void write(byte[] b) { }
}
