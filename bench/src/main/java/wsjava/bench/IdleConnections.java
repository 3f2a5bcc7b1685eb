package wsjava.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Opens many idle WebSocket connections, reads the server's resident memory, and checks some still echo. */
public final class IdleConnections {

    private IdleConnections() {
    }

    /** What holding the connections cost the server. */
    public static final class Held {
        public final int connections;
        public final long serverRssKiB;
        public final String note;

        Held(int connections, long serverRssKiB, String note) {
            this.connections = connections;
            this.serverRssKiB = serverRssKiB;
            this.note = note;
        }
    }

    public static Held hold(int port, int count, long serverPid, Progress progress) throws IOException {
        List<SocketChannel> open = new ArrayList<>(count);
        String note = "";
        try {
            for (int i = 0; i < count; i++) {
                try {
                    open.add(EchoLoadClient.connect(port));
                } catch (IOException e) {
                    note = "stopped at " + open.size() + ": " + e.getMessage();
                    break;
                }
                if (progress != null) {
                    progress.advance(1);
                }
            }
            sleep(500);     // let the server settle before reading its memory
            long rss = rssKiB(serverPid);
            int alive = stillEchoing(open);
            if (alive < Math.min(10, open.size())) {
                note = (note.isEmpty() ? "" : note + "; ") + "only " + alive + " of 10 sampled connections echoed";
            }
            return new Held(open.size(), rss, note);
        } finally {
            for (SocketChannel c : open) {
                c.close();
            }
        }
    }

    /** Sends a small message on 10 connections spread over the set and counts exact echoes. */
    private static int stillEchoing(List<SocketChannel> open) {
        int alive = 0;
        byte[] payload = {1, 2, 3, 4, 5, 6, 7};
        byte[] expected = {(byte) 0x82, 7, 1, 2, 3, 4, 5, 6, 7};
        wsjava.protocol.FrameWriter writer = new wsjava.protocol.FrameWriter(wsjava.protocol.Role.CLIENT, 1 << 20);
        for (int i = 0; i < 10 && !open.isEmpty(); i++) {
            SocketChannel c = open.get(i * open.size() / 10);
            try {
                c.configureBlocking(true);
                c.socket().setSoTimeout(5_000);
                c.write(ByteBuffer.wrap(writer.binary(payload)));
                byte[] got = c.socket().getInputStream().readNBytes(expected.length);
                if (java.util.Arrays.equals(expected, got)) {
                    alive++;
                }
            } catch (IOException e) {
                // counted as not alive
            }
        }
        return alive;
    }

    /** VmRSS of a process from /proc, in KiB; -1 where /proc is not there. */
    public static long rssKiB(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
