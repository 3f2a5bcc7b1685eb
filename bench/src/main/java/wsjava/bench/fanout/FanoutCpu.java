package wsjava.bench.fanout;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import wsjava.bench.Report;
import wsjava.bench.deflate.ProcessCpu;

/** CPU of the servers, the Redis and the load client over one measured window, from /proc, as a share of one core. */
final class FanoutCpu implements FanoutLoad.Window {

    private final List<Long> servers;
    private final long redis;
    private final long self = ProcessHandle.current().pid();
    private final Map<Long, Double> before = new LinkedHashMap<>();
    private final Map<Long, Double> percent = new LinkedHashMap<>();
    private long openedNanos;

    FanoutCpu(List<Long> servers, long redis) {
        this.servers = servers;
        this.redis = redis;
    }

    private List<Long> pids() {
        List<Long> all = new ArrayList<>(servers);
        all.add(redis);
        all.add(self);
        return all;
    }

    @Override
    public void opened() {
        openedNanos = System.nanoTime();
        pids().forEach(p -> before.put(p, ProcessCpu.seconds(p)));
    }

    @Override
    public void closed() {
        double wall = (System.nanoTime() - openedNanos) / 1e9;
        pids().forEach(p -> percent.put(p, 100 * (ProcessCpu.seconds(p) - before.getOrDefault(p, 0.0)) / wall));
    }

    /** Each server's share, joined with " + ". */
    String servers() {
        List<String> each = new ArrayList<>();
        servers.forEach(p -> each.add(Report.fixed(percent.getOrDefault(p, Double.NaN), 0)));
        return String.join(" + ", each);
    }

    String redis() {
        return redis < 0 ? "" : Report.fixed(percent.getOrDefault(redis, Double.NaN), 0);
    }

    String client() {
        return Report.fixed(percent.getOrDefault(self, Double.NaN), 0);
    }
}
