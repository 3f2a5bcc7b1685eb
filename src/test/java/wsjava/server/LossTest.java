package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import wsjava.cli.EchoListener;
import wsjava.protocol.Frame;
import wsjava.protocol.OpCode;
import wsjava.testing.RawClient;

/**
 * 200 concurrent connections each send 1,000 sequence-numbered messages of varying size, pipelined
 * in windows of 100; every echo must come back exactly once, in order, intact.
 */
class LossTest {

    private static final int CONNECTIONS = 200;
    private static final int MESSAGES = 1_000;
    private static final int WINDOW = 100;

    static String message(int connection, int seq) {
        StringBuilder b = new StringBuilder("c").append(connection).append(':').append(seq).append(':');
        for (int i = 0; i < seq % 300; i++) {
            b.append((char) ('a' + (connection + seq + i) % 26));
        }
        return b.toString();
    }

    @Test
    void noMessageIsLostDuplicatedReorderedOrCorrupted() throws Exception {
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0), new EchoListener()).start();
        ExecutorService pool = Executors.newFixedThreadPool(CONNECTIONS);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++) {
                int id = c;
                results.add(pool.submit(() -> runConnection(server.port(), id)));
            }
            int total = 0;
            for (Future<Integer> f : results) {
                total += f.get(180, TimeUnit.SECONDS);
            }
            assertEquals(CONNECTIONS * MESSAGES, total);
            assertEquals((long) CONNECTIONS * MESSAGES, server.stats().messagesIn());
            assertEquals((long) CONNECTIONS * MESSAGES, server.stats().messagesOut());
        } finally {
            pool.shutdownNow();
            server.stop();
        }
    }

    private static int runConnection(int port, int id) throws Exception {
        int verified = 0;
        try (RawClient client = RawClient.open(port)) {
            for (int start = 0; start < MESSAGES; start += WINDOW) {
                ByteArrayOutputStream batch = new ByteArrayOutputStream();
                for (int seq = start; seq < start + WINDOW; seq++) {
                    byte[] b = message(id, seq).getBytes(StandardCharsets.UTF_8);
                    batch.writeBytes(client.writer.frame(OpCode.TEXT, true, b, 0, b.length));
                }
                client.send(batch.toByteArray());
                for (int seq = start; seq < start + WINDOW; seq++) {
                    Frame f = client.readFrame(30_000);
                    assertTrue(f != null && f.opcode() == OpCode.TEXT, "connection " + id + " seq " + seq + ": " + f);
                    assertEquals(message(id, seq), new String(f.payload(), StandardCharsets.UTF_8), "connection " + id);
                    verified++;
                }
            }
        }
        return verified;
    }
}
