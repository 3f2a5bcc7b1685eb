package wsjava.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The echo run's closing lines: the ratios that matter most, one line each, from the tables above. */
final class EchoSummary {

    private EchoSummary() {
    }

    /** {@code rate}: "server|size|connections" to msgs/s of the one pass; {@code headToHead}: "server|size" to its medians (empty without the C client). */
    static void print(int[] sizes, int mid, int rounds, Map<String, Double> rate, Map<String, EchoHeadToHead.Median> headToHead,
                      EchoBench.Peer newerJdk) {
        StringBuilder summary = new StringBuilder("ratios, one pass per server (" + mid + " connections, msgs/s):");
        for (int size : sizes) {
            Double ws = rate.get("WSJava|" + size + "|" + mid);
            summary.append(String.format(Locale.ROOT, " %s: WSJava/uWebSockets %s, WSJava/Netty %s;", MaskBench.sizeName(size),
                    ratio(ws, rate.get("uWebSockets|" + size + "|" + mid)), ratio(ws, rate.get("Netty|" + size + "|" + mid))));
        }
        System.out.println(summary);
        if (!headToHead.isEmpty()) {
            printOverFloor(sizes, headToHead);
            StringBuilder robust = new StringBuilder("ratios, head to head (" + mid + " connections, medians of " + rounds + " interleaved rounds):");
            for (int size : sizes) {
                EchoHeadToHead.Median ws = headToHead.get("WSJava|" + size);
                robust.append(String.format(Locale.ROOT, " %s: WSJava/uWebSockets %s, WSJava/Netty %s;", MaskBench.sizeName(size),
                        EchoHeadToHead.ratio(ws, headToHead.get("uWebSockets|" + size)), EchoHeadToHead.ratio(ws, headToHead.get("Netty|" + size))));
            }
            System.out.println(robust);
            StringBuilder cost = new StringBuilder("server CPU per message, head to head (WSJava over the other; under 1 is cheaper):");
            for (int size : sizes) {
                EchoHeadToHead.Median ws = headToHead.get("WSJava|" + size);
                cost.append(String.format(Locale.ROOT, " %s: %.2f us/msg, x uWebSockets %s, x Netty %s, x Netty epoll %s;", MaskBench.sizeName(size),
                        ws == null ? Double.NaN : ws.serverMicrosPerMessage, EchoHeadToHead.costRatio(ws, headToHead.get("uWebSockets|" + size)),
                        EchoHeadToHead.costRatio(ws, headToHead.get("Netty|" + size)), EchoHeadToHead.costRatio(ws, headToHead.get("Netty epoll|" + size))));
            }
            System.out.println(cost);
            if (newerJdk != null && headToHead.containsKey(newerJdk.name + "|" + sizes[0])) {
                StringBuilder jdk = new StringBuilder("server CPU per message, head to head, " + newerJdk.name + " over the other:");
                for (int size : sizes) {
                    EchoHeadToHead.Median newer = headToHead.get(newerJdk.name + "|" + size);
                    jdk.append(String.format(Locale.ROOT, " %s: %.2f us/msg, x WSJava %s, x uWebSockets %s;", MaskBench.sizeName(size),
                            newer.serverMicrosPerMessage, EchoHeadToHead.costRatio(newer, headToHead.get("WSJava|" + size)),
                            EchoHeadToHead.costRatio(newer, headToHead.get("uWebSockets|" + size))));
                }
                System.out.println(jdk);
            }
        }
    }

    /** Every server's CPU per message over the floor's, from the head-to-head. */
    private static void printOverFloor(int[] sizes, Map<String, EchoHeadToHead.Median> headToHead) {
        List<String> servers = new ArrayList<>();
        for (String key : headToHead.keySet()) {
            String server = key.substring(0, key.lastIndexOf('|'));
            if (!servers.contains(server)) {
                servers.add(server);
            }
        }
        StringBuilder line = new StringBuilder("server CPU per message over the floor's, head to head (1 = what the kernel alone costs):");
        for (int size : sizes) {
            EchoHeadToHead.Median floor = headToHead.get(FloorPeer.NAME + "|" + size);
            if (floor == null) {
                line.append(" ").append(MaskBench.sizeName(size)).append(": the floor did not run;");
                continue;
            }
            line.append(String.format(Locale.ROOT, " %s: floor %.2f us/msg", MaskBench.sizeName(size), floor.serverMicrosPerMessage));
            for (String server : servers) {
                if (!server.equals(FloorPeer.NAME)) {
                    line.append(", ").append(server).append(' ').append(EchoHeadToHead.costRatio(headToHead.get(server + "|" + size), floor));
                }
            }
            line.append(';');
        }
        System.out.println(line);
    }

    private static String ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? "not run" : Report.fixed(a / b, 2) + "x";
    }
}
